package dev.slipcase.redis.serializer.compression;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The lookup of built-in compressors by name and by their stored ids. */
class CompressorsTests {

	@Test
	void findsEachByName() {
		assertThat(Compressors.byName("lz4")).isInstanceOf(Lz4Compressor.class);
		assertThat(Compressors.byName("zstd")).isInstanceOf(ZstdCompressor.class);
		assertThat(Compressors.byName("gzip")).isInstanceOf(GzipCompressor.class);
		assertThat(Compressors.byName(" ZSTD ")).isSameAs(Compressors.zstd());
	}

	@Test
	void idsAreStable() {
		assertThat(Compressors.byId(1)).isSameAs(Compressors.lz4());
		assertThat(Compressors.byId(2)).isSameAs(Compressors.zstd());
		assertThat(Compressors.byId(3)).isSameAs(Compressors.gzip());
		for (String name : Compressors.NAMES) {
			assertThat(Compressors.byId(Compressors.byName(name).id()).name()).isEqualTo(name);
		}
	}

	@Test
	void unknownNameIsAClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> Compressors.byName("snappy"))
			.withMessageContaining("'snappy'")
			.withMessageContaining("[lz4, zstd, gzip]");
	}

	@Test
	void unknownIdIsAClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> Compressors.byId(5)).withMessageContaining("id 5");
		assertThatIllegalArgumentException().isThrownBy(() -> Compressors.byId(0))
			.withMessageContaining("not compressed");
	}

	@Test
	void reportsAvailability() {
		assertThat(Compressors.isAvailable("lz4")).isTrue();
		assertThat(Compressors.isAvailable("zstd")).isTrue();
		assertThat(Compressors.isAvailable("gzip")).isTrue();
		assertThat(Compressors.isAvailable("snappy")).isFalse();
	}

}
