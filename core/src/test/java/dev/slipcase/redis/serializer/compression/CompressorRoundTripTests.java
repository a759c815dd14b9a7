package dev.slipcase.redis.serializer.compression;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.compression.Candidates.Candidate;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every compressor round-trips values of every size, from and into every kind of buffer, reads
 * exactly its input and writes exactly its output, and honours the decompression cap to the byte.
 */
class CompressorRoundTripTests {

	private static final int[] SIZES = { 0, 1, 100, 1024, 70 * 1024, 1024 * 1024 };

	static Stream<Arguments> cases() {
		List<Arguments> cases = new ArrayList<>();
		BufferKind[][] pairs = { { BufferKind.HEAP, BufferKind.HEAP }, { BufferKind.DIRECT, BufferKind.DIRECT },
				{ BufferKind.POOLED_HEAP, BufferKind.DIRECT }, { BufferKind.DIRECT, BufferKind.POOLED_HEAP } };
		for (Candidate candidate : Candidates.all()) {
			for (int size : SIZES) {
				for (BufferKind[] pair : pairs) {
					cases.add(Arguments.of(candidate, size, pair[0], pair[1]));
				}
			}
			for (int size : new int[] { 100, 70 * 1024 }) {
				cases.add(Arguments.of(candidate, size, BufferKind.COMPOSITE, BufferKind.COMPOSITE));
				cases.add(Arguments.of(candidate, size, BufferKind.COMPOSITE, BufferKind.HEAP));
				cases.add(Arguments.of(candidate, size, BufferKind.HEAP, BufferKind.COMPOSITE));
			}
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "{0} {1} bytes {2} -> {3}")
	@MethodSource("cases")
	void roundTripsText(Candidate candidate, int size, BufferKind input, BufferKind output) {
		byte[] original = Samples.text(new SplittableRandom(size), size);
		assertRoundTrip(candidate.factory().get(), original, input, output);
	}

	@ParameterizedTest(name = "{0} {1} bytes {2} -> {3}")
	@MethodSource("cases")
	void roundTripsIncompressibleBytes(Candidate candidate, int size, BufferKind input, BufferKind output) {
		byte[] original = Samples.random(new SplittableRandom(size), size);
		assertRoundTrip(candidate.factory().get(), original, input, output);
	}

	private static void assertRoundTrip(Compressor compressor, byte[] original, BufferKind input, BufferKind output) {
		ByteBuf in = input.of(original);
		ByteBuf compressed = output.allocate(16);
		ByteBuf restored = input.allocate(16);
		try {
			compressed.writeBytes(new byte[] { 7, 7 }); // what the caller wrote before stays
			compressor.compress(in, compressed);
			assertThat(in.isReadable()).as("input fully read").isFalse();
			assertThat(compressed.readShort()).isEqualTo((short) 0x0707);
			byte[] compressedBytes = BufferKind.toBytes(compressed);

			compressor.decompress(compressed, restored, original.length);
			assertThat(compressed.isReadable()).as("compressed value fully read").isFalse();
			assertThat(BufferKind.toBytes(restored)).isEqualTo(original);

			if (original.length > 0) {
				ByteBuf again = input.of(compressedBytes);
				ByteBuf tooSmall = output.allocate(16);
				try {
					assertThatExceptionOfType(SerializationException.class)
						.isThrownBy(() -> compressor.decompress(again, tooSmall, original.length - 1))
						.withMessageContaining(compressor.name())
						.withMessageContaining("more than the maximum decompressed size of " + (original.length - 1));
					assertThat(tooSmall.writerIndex()).as("nothing written on failure").isZero();
				}
				finally {
					again.release();
					tooSmall.release();
				}
			}
		}
		finally {
			in.release();
			compressed.release();
			restored.release();
		}
	}

}
