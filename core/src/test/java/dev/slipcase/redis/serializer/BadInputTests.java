package dev.slipcase.redis.serializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.json.PolymorphicJsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Thousands of mutated inputs per format (truncated, bit-flipped, overwritten, spliced, random,
 * behind forged headers, claiming oversized lengths): each must decode to a value or fail with a
 * {@link SerializationException} naming the format, on every kind of buffer, without leaking one
 * (the paranoid leak detector fails the class otherwise). The seed is fixed; set
 * {@code -Dslipcase.fuzz.seed=...} to explore others. A failure prints the seed, the case and the
 * input.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BadInputTests {

	private static final long SEED = Long.getLong("slipcase.fuzz.seed", 0x5eed_c0deL);

	private static final int CASES = 3000;

	private final DeflateCompressor deflate = new DeflateCompressor();

	@Test
	void string() {
		fuzz(SelfDescribingFormat.of(Utf8StringFormat.INSTANCE), List.of("hello", "grüße 😀", "x".repeat(300)), "string");
	}

	@Test
	void json() {
		fuzz(SelfDescribingFormat.of(JsonFormat.of(Order.class)), List.of(TestValues.order(1), TestValues.orderWithNulls(2)),
				"json");
	}

	@Test
	void springTypedJson() {
		byte[] spring = org.springframework.data.redis.serializer.RedisSerializer.json().serialize(TestValues.order(1));
		fuzzBytes(SelfDescribingFormat.of(JsonFormat.of(Order.class)), List.of(spring), "json");
	}

	@Test
	void polymorphicJson() {
		PolymorphicJsonFormat format = PolymorphicJsonFormat
			.of(TypeAllowlist.builder().allow("order", Order.class).allow("session", Session.class).build());
		fuzz(SelfDescribingFormat.of(format), List.of(TestValues.order(1), TestValues.session(1)), "polymorphic-json");
	}

	@Test
	void protostuff() {
		fuzz(SelfDescribingFormat.of(ProtostuffFormat.of(Order.class)),
				List.of(TestValues.order(1), TestValues.orderWithNulls(2)), "protostuff");
	}

	@Test
	void fory() {
		fuzz(SelfDescribingFormat.of(ForyFormat.of(Order.class)), List.of(TestValues.order(1), TestValues.orderWithNulls(2)),
				"fory");
	}

	@Test
	void foryList() {
		List<Session> sessions = IntStream.range(0, 20).mapToObj(TestValues::session).toList();
		fuzz(SelfDescribingFormat.of(ForyFormat.of(new TypeReference<List<Session>>() {
		})), List.of(sessions), "fory");
	}

	@Test
	void protostuffList() {
		List<Session> sessions = IntStream.range(0, 20).mapToObj(TestValues::session).toList();
		fuzz(SelfDescribingFormat.of(ProtostuffFormat.of(new TypeReference<List<Session>>() {
		})), List.of(sessions), "protostuff");
	}

	@Test
	void numbers() {
		fuzz(SelfDescribingFormat.of(NumberFormat.LONG), List.of(0L, -42L, Long.MAX_VALUE), "number-long");
		fuzz(SelfDescribingFormat.of(NumberFormat.BIG_DECIMAL),
				List.of(new java.math.BigDecimal("12.50"), new java.math.BigDecimal("-0.001")), "number-decimal");
		fuzz(SelfDescribingFormat.of(NumberFormat.DOUBLE), List.of(2.5, -1e10), "number-double");
	}

	@Test
	void compressedJson() {
		fuzz(SelfDescribingFormat.builder(JsonFormat.of(Order.class)).compression(this.deflate, 0).maxDecompressedSize(64 * 1024).build(),
				List.of(TestValues.order(1)), "json");
	}

	@Test
	void compressedProtostuff() {
		fuzz(SelfDescribingFormat.builder(ProtostuffFormat.of(Order.class)).compression(this.deflate, 0).maxDecompressedSize(64 * 1024).build(),
				List.of(TestValues.order(1)), "protostuff");
	}

	@Test
	void routed() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("order", Order.class).allow("session", Session.class).build();
		ValueFormat<Object> format = FormatRouter.builder()
			.register(Order.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, "deflate", 0))
			.compressors(this.deflate)
			.maxDecompressedSize(64 * 1024)
			.build()
			.format(allowlist);
		List<byte[]> samples = List.of(Buffers.UNPOOLED_HEAP.encode(format, TestValues.order(1)),
				Buffers.UNPOOLED_HEAP.encode(format, TestValues.session(1)));
		fuzzBytes(format, samples, "polymorphic-json|polymorphic-protostuff|protostuff");
	}

	private <T> void fuzz(SelfDescribingFormat<T> format, List<T> samples, String formatName) {
		List<byte[]> encoded = new ArrayList<>();
		for (T sample : samples) {
			encoded.add(Buffers.UNPOOLED_HEAP.encode(format, sample));
		}
		fuzzBytes(format, encoded, formatName);
	}

	/** Fuzzes {@code format}; every error message must start with a name matching {@code formatName}. */
	private <T> void fuzzBytes(ValueFormat<T> format, List<byte[]> samples, String formatName) {
		SplittableRandom random = new SplittableRandom(SEED ^ formatName.hashCode());
		List<Buffers> kinds = Buffers.all();
		for (int i = 0; i < CASES; i++) {
			byte[] sample = samples.get(random.nextInt(samples.size()));
			String mutation = "";
			byte[] input;
			switch (random.nextInt(8)) {
				case 0 -> {
					mutation = "truncated";
					input = Arrays.copyOf(sample, random.nextInt(sample.length));
				}
				case 1 -> {
					mutation = "bit flips";
					input = sample.clone();
					for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
						int at = random.nextInt(input.length);
						input[at] ^= (byte) (1 << random.nextInt(8));
					}
				}
				case 2 -> {
					mutation = "overwritten bytes";
					input = sample.clone();
					for (int n = 1 + random.nextInt(8); n > 0; n--) {
						input[random.nextInt(input.length)] = (byte) random.nextInt(256);
					}
				}
				case 3 -> {
					mutation = "inserted bytes";
					int at = random.nextInt(sample.length + 1);
					byte[] extra = randomBytes(random, 1 + random.nextInt(16));
					input = new byte[sample.length + extra.length];
					System.arraycopy(sample, 0, input, 0, at);
					System.arraycopy(extra, 0, input, at, extra.length);
					System.arraycopy(sample, at, input, at + extra.length, sample.length - at);
				}
				case 4 -> {
					mutation = "random bytes";
					input = randomBytes(random, 1 + random.nextInt(300));
				}
				case 5 -> {
					mutation = "forged header";
					byte[] body = randomBytes(random, random.nextInt(200));
					input = new byte[body.length + 2];
					input[0] = (byte) (0xF5 + random.nextInt(11));
					input[1] = (byte) random.nextInt(8);
					System.arraycopy(body, 0, input, 2, body.length);
				}
				case 6 -> {
					mutation = "oversize claim";
					input = sample.clone();
					int at = Math.min(input.length - 1, 2 + random.nextInt(Math.max(1, Math.min(8, input.length))));
					input[at] = (byte) 0xFF;
					if (at + 1 < input.length) {
						input[at + 1] = (byte) 0xFF;
					}
					if (at + 2 < input.length) {
						input[at + 2] = (byte) 0x7F;
					}
				}
				default -> {
					mutation = "spliced";
					byte[] other = samples.get(random.nextInt(samples.size()));
					int cut = random.nextInt(sample.length);
					int from = random.nextInt(other.length);
					input = new byte[cut + other.length - from];
					System.arraycopy(sample, 0, input, 0, cut);
					System.arraycopy(other, from, input, cut, other.length - from);
				}
			}
			if (input.length == 0) {
				continue;
			}
			Buffers kind = kinds.get(i % kinds.size());
			try {
				Object value = kind.with(input, format::decode);
				assertThat(value).isNotNull();
			}
			catch (SerializationException ex) {
				if (ex.getMessage() == null || !ex.getMessage().matches("(?s)(" + formatName + ")[:+].*")) {
					fail(describe(formatName, i, mutation, kind, input) + ": message does not name the format: "
							+ ex.getMessage(), ex);
				}
				if (INTERNALS.matcher(ex.getMessage()).find()) {
					fail(describe(formatName, i, mutation, kind, input)
							+ ": message names buffer or exception internals instead of the cause in words: "
							+ ex.getMessage(), ex);
				}
			}
			catch (Throwable ex) {
				fail(describe(formatName, i, mutation, kind, input) + ": threw " + ex, ex);
			}
		}
	}

	/** What a message about a value must not contain: buffer internals and raw exception class names. */
	private static final java.util.regex.Pattern INTERNALS = java.util.regex.Pattern
		.compile("ByteBuf|writerIndex|readerIndex|maxCapacity|Adaptive|[A-Za-z]+(Exception|Error):");

	private static String describe(String formatName, int i, String mutation, Buffers kind, byte[] input) {
		return formatName + " case " + i + " (seed " + SEED + ", " + mutation + ", " + kind + ") input "
				+ io.netty.buffer.ByteBufUtil.hexDump(input);
	}

	private static byte[] randomBytes(SplittableRandom random, int length) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) random.nextInt(256);
		}
		return bytes;
	}

}
