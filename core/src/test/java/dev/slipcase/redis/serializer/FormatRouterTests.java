package dev.slipcase.redis.serializer;

import java.util.List;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FormatRouterTests {

	private final DeflateCompressor deflate = new DeflateCompressor();

	@Test
	void unannotatedTypesAreWrittenAsPlainJson() {
		FormatRouter router = FormatRouter.builder().build();
		byte[] bytes = router.serializer(Session.class).serialize(TestValues.session(1));
		assertThat(bytes[0]).isEqualTo((byte) '{');
	}

	@Test
	void theAnnotationChoosesTheFormatAndCompression() {
		FormatRouter router = FormatRouter.builder().compressors(this.deflate).build();
		Catalogue catalogue = catalogue();
		byte[] bytes = router.serializer(Catalogue.class).serialize(catalogue);
		assertThat(bytes[0] & 0xFF).isEqualTo(0xF8 | this.deflate.id());
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(router.serializer(Catalogue.class).deserialize(bytes)).isEqualTo(catalogue);
	}

	@Test
	void aRegistrationOverridesTheAnnotation() {
		FormatRouter router = FormatRouter.builder().register(Catalogue.class, FormatKind.JSON).build();
		byte[] bytes = router.serializer(Catalogue.class).serialize(catalogue());
		assertThat(bytes[0]).isEqualTo((byte) '{');
	}

	@Test
	void valuesWrittenBeforeATypesFormatChangedStayReadable() {
		FormatRouter before = FormatRouter.builder().register(Catalogue.class, FormatKind.JSON).build();
		byte[] old = before.serializer(Catalogue.class).serialize(catalogue());
		FormatRouter after = FormatRouter.builder().compressors(this.deflate).build();
		byte[] now = after.serializer(Catalogue.class).serialize(catalogue());
		assertThat(old[0]).isEqualTo((byte) '{');
		assertThat(now[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(after.serializer(Catalogue.class).deserialize(old)).isEqualTo(catalogue());
	}

	@Test
	void aJsonTypeStillReadsProtostuffWrittenByALaterChoice() {
		FormatRouter protostuff = FormatRouter.builder()
			.register(Order.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, null, 0))
			.build();
		byte[] bytes = protostuff.serializer(Order.class).serialize(TestValues.order(1));
		FormatRouter json = FormatRouter.builder().build();
		assertThat(json.serializer(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(1));
	}

	@Test
	void genericTypesAreRoutedByTheirRawClass() {
		FormatRouter router = FormatRouter.builder()
			.register(List.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, "deflate", 0))
			.compressors(this.deflate)
			.build();
		SlipcaseRedisSerializer<List<Session>> serializer = router.serializer(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		byte[] bytes = serializer.serialize(sessions);
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(serializer.deserialize(bytes)).isEqualTo(sessions);
	}

	@Test
	void anUnregisteredCompressorIsNamed() {
		FormatRouter router = FormatRouter.builder().build();
		assertThatIllegalArgumentException().isThrownBy(() -> router.format(Catalogue.class))
			.withMessageContaining("compressor 'deflate' chosen for")
			.withMessageContaining("is not registered");
	}

	private static Catalogue catalogue() {
		return new Catalogue(java.util.stream.IntStream.range(0, 50).mapToObj(TestValues::session).toList());
	}

	@RedisFormat(value = FormatKind.PROTOSTUFF, compression = "deflate", minCompressSize = 64)
	record Catalogue(List<Session> sessions) {
	}

}
