package dev.slipcase.redis.serializer.compression;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.compression.Candidates.Candidate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Thousands of corrupt, truncated, bit-flipped, extended and random inputs per compressor, from a
 * fixed seed ({@code -Dslipcase.seed=...} to vary it; the seed and case are in every failure):
 * each is either refused with a {@link SerializationException} naming the compressor, or (when
 * the mutation touched only bytes that carry no meaning, such as gzip's timestamp) decompresses
 * to exactly the original. Never another exception, a wrong value, or a leaked buffer.
 */
class CompressorBadInputTests {

	private static final long SEED = Long.getLong("slipcase.seed", 0x5EED_2026L);

	private static final int CASES = 3000;

	private static final int MAX_DECOMPRESSED_SIZE = 1 << 20;

	static Stream<Candidate> candidates() {
		return Candidates.all().stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("candidates")
	void mutatedValuesAreRefusedOrExact(Candidate candidate) {
		Compressor compressor = candidate.factory().get();
		SplittableRandom random = new SplittableRandom(SEED ^ candidate.label().hashCode());
		int refused = 0;
		for (int i = 0; i < CASES; i++) {
			byte[] original = original(random);
			byte[] compressed = compress(compressor, original);
			Mutation mutation = Mutation.values()[random.nextInt(Mutation.values().length)];
			byte[] mutated = mutation.apply(compressed, random);
			String scenario = "seed " + SEED + ", " + candidate + ", case " + i + ", " + mutation + ", "
					+ original.length + " bytes";
			if (check(compressor, mutated, original, scenario, random.nextBoolean())) {
				refused++;
			}
		}
		assertThat(refused).as("most mutations are refused (seed %d)", SEED).isGreaterThan(CASES / 2);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("candidates")
	void randomBytesAreRefused(Candidate candidate) {
		Compressor compressor = candidate.factory().get();
		SplittableRandom random = new SplittableRandom(SEED ^ ~candidate.label().hashCode());
		for (int i = 0; i < CASES; i++) {
			byte[] garbage = Samples.random(random, random.nextInt(200));
			String scenario = "seed " + SEED + ", " + candidate + ", case " + i + ", random " + garbage.length + " bytes";
			assertThat(check(compressor, garbage, null, scenario, random.nextBoolean())).as(scenario).isTrue();
		}
	}

	/** Whether the value was refused; fails the test on anything but a refusal or the exact original. */
	private static boolean check(Compressor compressor, byte[] value, byte[] original, String scenario, boolean direct) {
		ByteBuf in = direct ? BufferKind.DIRECT.of(value) : BufferKind.POOLED_HEAP.of(value);
		ByteBuf out = direct ? BufferKind.POOLED_HEAP.allocate(64) : BufferKind.DIRECT.allocate(64);
		try {
			compressor.decompress(in, out, MAX_DECOMPRESSED_SIZE);
			if (original == null || !Arrays.equals(BufferKind.toBytes(out), original)) {
				fail("A wrong value was returned (" + scenario + ")");
			}
			return false;
		}
		catch (SerializationException ex) {
			assertThat(ex.getMessage()).as(scenario).contains(compressor.name());
			assertThat(ex.getMessage()).as(scenario + ": the cause in words, not buffer internals")
				.doesNotContainPattern("ByteBuf|writerIndex|readerIndex|maxCapacity|Adaptive|[A-Za-z]+(Exception|Error):");
			assertThat(out.writerIndex()).as("nothing left in the output: " + scenario).isZero();
			assertThat(in.readerIndex()).as("input not consumed: " + scenario).isZero();
			return true;
		}
		catch (Throwable ex) {
			throw new AssertionError("Not a SerializationException (" + scenario + "): " + ex, ex);
		}
		finally {
			in.release();
			out.release();
		}
	}

	private static byte[] original(SplittableRandom random) {
		int size = switch (random.nextInt(4)) {
			case 0 -> random.nextInt(16);
			case 1 -> random.nextInt(200);
			case 2 -> random.nextInt(2000);
			default -> random.nextInt(20_000);
		};
		return random.nextInt(4) == 0 ? Samples.random(random, size)
				: (random.nextBoolean() ? Samples.text(random, size) : Samples.jsonRecord(random.nextLong()));
	}

	private static byte[] compress(Compressor compressor, byte[] original) {
		ByteBuf in = Unpooled.wrappedBuffer(original);
		ByteBuf out = Unpooled.buffer();
		try {
			compressor.compress(in, out);
			return BufferKind.toBytes(out);
		}
		finally {
			in.release();
			out.release();
		}
	}

	enum Mutation {

		TRUNCATE {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				return Arrays.copyOf(value, random.nextInt(value.length));
			}
		},

		FLIP_BIT {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				byte[] copy = value.clone();
				int bit = random.nextInt(copy.length * 8);
				copy[bit / 8] ^= (byte) (1 << (bit % 8));
				return copy;
			}
		},

		FLIP_BITS {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				byte[] copy = value.clone();
				for (int i = 0, flips = 2 + random.nextInt(8); i < flips; i++) {
					int bit = random.nextInt(copy.length * 8);
					copy[bit / 8] ^= (byte) (1 << (bit % 8));
				}
				return copy;
			}
		},

		OVERWRITE_BYTE {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				byte[] copy = value.clone();
				int index = random.nextInt(copy.length);
				copy[index] = (byte) (copy[index] + 1 + random.nextInt(255));
				return copy;
			}
		},

		APPEND {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				byte[] copy = Arrays.copyOf(value, value.length + 1 + random.nextInt(16));
				for (int i = value.length; i < copy.length; i++) {
					copy[i] = (byte) random.nextInt(256);
				}
				return copy;
			}
		},

		DELETE_BYTE {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				int index = random.nextInt(value.length);
				byte[] copy = new byte[value.length - 1];
				System.arraycopy(value, 0, copy, 0, index);
				System.arraycopy(value, index + 1, copy, index, value.length - index - 1);
				return copy;
			}
		},

		HEADER_GARBAGE {
			@Override
			byte[] apply(byte[] value, SplittableRandom random) {
				byte[] copy = value.clone();
				for (int i = 0, n = Math.min(copy.length, 1 + random.nextInt(12)); i < n; i++) {
					copy[random.nextInt(Math.min(copy.length, 16))] = (byte) random.nextInt(256);
				}
				return copy;
			}
		};

		abstract byte[] apply(byte[] value, SplittableRandom random);

	}

}
