package dev.slipcase.redis.serializer.compression;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.redis.serializer.SerializationException;

import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.compress;
import static dev.slipcase.redis.serializer.compression.ZstdCompressorTests.decompress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Zstd dictionaries: trained from about 1000 JSON records of about 100 bytes, they shrink
 * unseen records of the same shape; the id travels in each frame, so old values stay readable
 * while their dictionary stays loaded, and a missing one is a clear error.
 */
class ZstdDictionaryTests {

	private static final int CAP = 1 << 20;

	private static final ZstdDictionary FIRST = Candidates.dictionary();

	private static final ZstdDictionary SECOND = ZstdDictionary.train(Samples.jsonRecords(5000, 1000), 4096, 2);

	@Test
	void samplesAreRecordsOfAbout100Bytes() {
		List<byte[]> samples = Samples.jsonRecords(0, 1000);
		double average = samples.stream().mapToInt((sample) -> sample.length).average().orElseThrow();
		assertThat(average).isBetween(80.0, 160.0);
		assertThat(samples.stream().map(String::new).distinct().count()).isEqualTo(1000);
	}

	@Test
	void trainedDictionaryShrinksUnseenRecordsMoreThanPlainZstd() {
		ZstdCompressor plain = ZstdCompressor.create();
		ZstdCompressor withDictionary = plain.withDictionary(FIRST);
		int plainTotal = 0;
		int dictionaryTotal = 0;
		for (byte[] record : Samples.jsonRecords(100_000, 200)) {
			plainTotal += compress(plain, record).length;
			dictionaryTotal += compress(withDictionary, record).length;
		}
		assertThat(dictionaryTotal).isLessThan(plainTotal / 2);
	}

	@Test
	void framesCarryTheDictionaryIdAndRoundTrip() {
		ZstdCompressor compressor = ZstdCompressor.create().withDictionary(FIRST);
		byte[] record = Samples.jsonRecord(123_456);
		byte[] frame = compress(compressor, record);
		assertThat(ZstdFrameHeader.read(Unpooled.wrappedBuffer(frame), "zstd").dictionaryId()).isEqualTo(FIRST.id());
		assertThat(decompress(compressor, frame, CAP)).isEqualTo(record);
	}

	@Test
	void smallIdsCostOneByteInEachFrame() {
		ZstdDictionary numbered = ZstdDictionary.train(Samples.jsonRecords(0, 1000), 4096, 7);
		assertThat(numbered.id()).isEqualTo(7);
		byte[] record = Samples.jsonRecord(42);
		byte[] small = compress(ZstdCompressor.create().withDictionary(numbered), record);
		byte[] large = compress(ZstdCompressor.create().withDictionary(FIRST), record);
		assertThat(FIRST.id()).isGreaterThan(65535);
		assertThat(ZstdFrameHeader.read(Unpooled.wrappedBuffer(small), "zstd").dictionaryId()).isEqualTo(7);
		assertThat(small.length).isEqualTo(large.length - 3);
		assertThat(decompress(ZstdCompressor.create().withDictionary(numbered), small, CAP)).isEqualTo(record);
	}

	@Test
	void refusesIdOutOfRange() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ZstdDictionary.train(Samples.jsonRecords(0, 1000), 4096, 0))
			.withMessageContaining("id");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ZstdDictionary.train(Samples.jsonRecords(0, 1000), 4096, 1L << 31))
			.withMessageContaining("id");
	}

	@Test
	void valuesWrittenWithAnOldDictionaryStayReadableWhileItIsLoaded() {
		ZstdCompressor old = ZstdCompressor.create().withDictionary(FIRST);
		ZstdCompressor current = ZstdCompressor.create()
			.withDictionaries(ZstdDictionaries.of(FIRST))
			.withDictionary(SECOND);
		byte[] record = Samples.jsonRecord(777);
		byte[] writtenByOld = compress(old, record);
		byte[] writtenByCurrent = compress(current, record);
		byte[] writtenWithout = compress(ZstdCompressor.create(), record);
		assertThat(SECOND.id()).isNotEqualTo(FIRST.id());
		assertThat(ZstdFrameHeader.read(Unpooled.wrappedBuffer(writtenByCurrent), "zstd").dictionaryId())
			.isEqualTo(SECOND.id());
		assertThat(decompress(current, writtenByOld, CAP)).isEqualTo(record);
		assertThat(decompress(current, writtenByCurrent, CAP)).isEqualTo(record);
		assertThat(decompress(current, writtenWithout, CAP)).isEqualTo(record);
		assertThat(current.dictionaries().ids()).containsExactlyInAnyOrder(FIRST.id(), SECOND.id());
	}

	@Test
	void valueNeedingADictionaryThatIsNotLoadedIsAClearError() {
		byte[] frame = compress(ZstdCompressor.create().withDictionary(FIRST), Samples.jsonRecord(1));
		ZstdCompressor other = ZstdCompressor.create().withDictionary(SECOND);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> decompress(other, frame, CAP))
			.withMessageContaining("zstd")
			.withMessageContaining("dictionary " + FIRST.id())
			.withMessageContaining("not loaded")
			.withMessageContaining(String.valueOf(SECOND.id()));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> decompress(ZstdCompressor.create(), frame, CAP))
			.withMessageContaining("dictionary " + FIRST.id());
	}

	@Test
	void loadsFromAFile(@TempDir Path directory) throws IOException {
		Path file = directory.resolve("session.zdict");
		FIRST.writeTo(file);
		ZstdDictionary loaded = ZstdDictionary.fromFile(file);
		assertThat(loaded).isEqualTo(FIRST);
		assertThat(loaded.id()).isEqualTo(FIRST.id());
		byte[] frame = compress(ZstdCompressor.create().withDictionary(FIRST), Samples.jsonRecord(9));
		assertThat(decompress(ZstdCompressor.create().withDictionary(loaded), frame, CAP))
			.isEqualTo(Samples.jsonRecord(9));
	}

	@Test
	void loadsFromTheClasspath(@TempDir Path directory) throws IOException {
		Files.createDirectories(directory.resolve("dictionaries"));
		FIRST.writeTo(directory.resolve("dictionaries/session.zdict"));
		try (URLClassLoader classLoader = new URLClassLoader(new URL[] { directory.toUri().toURL() }, null)) {
			assertThat(ZstdDictionary.fromClasspath("dictionaries/session.zdict", classLoader)).isEqualTo(FIRST);
			assertThat(ZstdDictionary.fromClasspath("/dictionaries/session.zdict", classLoader)).isEqualTo(FIRST);
		}
	}

	@Test
	void missingClasspathResourceIsAClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdDictionary.fromClasspath("no/such.zdict"))
			.withMessageContaining("no/such.zdict");
	}

	@Test
	void refusesBytesThatAreNotADictionary() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ZstdDictionary.of(Samples.random(new SplittableRandom(1), 4096)))
			.withMessageContaining("not a zstd dictionary");
		byte[] corrupt = FIRST.toByteArray();
		for (int i = 8; i < 200; i++) {
			corrupt[i] = (byte) 0xFF; // the entropy tables
		}
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdDictionary.of(corrupt))
			.withMessageContaining("not a valid zstd dictionary");
	}

	@Test
	void trainingWithTooFewSamplesIsAClearError() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ZstdDictionary.train(Samples.jsonRecords(0, 3), 64 * 1024))
			.withMessageContaining("Cannot train");
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdDictionary.train(List.of(), 4096))
			.withMessageContaining("samples");
	}

	@Test
	void trainingIsRepeatable() {
		assertThat(ZstdDictionary.train(Samples.jsonRecords(0, 1000), 4096)).isEqualTo(FIRST);
	}

	@Test
	void setRefusesTwoDifferentDictionariesWithTheSameId() {
		byte[] sameId = FIRST.toByteArray();
		sameId[sameId.length - 1] ^= 1; // content, not header: same id, different dictionary
		ZstdDictionary impostor = ZstdDictionary.of(sameId);
		assertThat(impostor.id()).isEqualTo(FIRST.id());
		assertThatIllegalArgumentException().isThrownBy(() -> ZstdDictionaries.of(FIRST, impostor))
			.withMessageContaining("same id " + FIRST.id());
		assertThat(ZstdDictionaries.of(FIRST, ZstdDictionary.of(FIRST.toByteArray())).ids()).containsExactly(FIRST.id());
	}

}
