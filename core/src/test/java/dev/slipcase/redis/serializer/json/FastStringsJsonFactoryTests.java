package dev.slipcase.redis.serializer.json;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.slipcase.redis.serializer.Buffers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class FastStringsJsonFactoryTests {

	private static final TypeReference<Map<String, List<String>>> TEXTS = new TypeReference<>() {
	};

	private static final JsonMapper JACKSON = JsonMapper.builder().build();

	@Test
	void writesWhatJacksonWritesAndReadsItBack() {
		SplittableRandom random = new SplittableRandom(25);
		for (int round = 0; round < 300; round++) {
			Map<String, List<String>> value = Map.of("texts", texts(random));
			byte[] expected = JACKSON.writeValueAsBytes(value);
			assertThat(JsonSupport.DEFAULT_MAPPER.writeValueAsBytes(value)).isEqualTo(expected);
			assertThat(JsonSupport.DEFAULT_MAPPER.readValue(expected, TEXTS)).isEqualTo(value);
		}
	}

	@ParameterizedTest
	@EnumSource(Buffers.class)
	void jsonFormatReadsEveryKindOfBuffer(Buffers buffers) {
		JsonFormat<Map<String, List<String>>> format = JsonFormat.of(TEXTS);
		Map<String, List<String>> value = Map.of("texts", texts(new SplittableRandom(3)));
		byte[] json = JACKSON.writeValueAsBytes(value);
		assertThat(buffers.with(json, format::decode)).isEqualTo(value);
		byte[] truncated = Arrays.copyOf(json, json.length / 2);
		assertThat(catchThrowable(() -> buffers.with(truncated, format::decode)))
			.isInstanceOf(SerializationException.class);
	}

	@ParameterizedTest
	@EnumSource(value = Buffers.class, names = { "POOLED_DIRECT", "COMPOSITE_DIRECT" })
	void jsonFormatReadsADirectValueAboveTheCopyLimit(Buffers buffers) {
		JsonFormat<Map<String, List<String>>> format = JsonFormat.of(TEXTS);
		String text = "plain ASCII text, ".repeat(JsonSupport.MAX_HEAP_COPY / 18 + 1);
		Map<String, List<String>> value = Map.of("texts", List.of(text, text + "\u00e9"));
		byte[] json = JACKSON.writeValueAsBytes(value);
		assertThat(json.length).isGreaterThan(JsonSupport.MAX_HEAP_COPY);
		assertThat(buffers.with(json, format::decode)).isEqualTo(value);
	}

	@Test
	void parseReadsADirectValueFromAHeapCopyItReleasesWhateverTheReadingDoes() {
		UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(true);
		ByteBuf direct = allocator.directBuffer().writeBytes(JACKSON.writeValueAsBytes(List.of("typed", "value")));
		try {
			Class<?> parserType = JsonSupport.parse(JsonSupport.DEFAULT_MAPPER, direct, (parser) -> parser.getClass());
			assertThat(parserType)
				.as("a parser over a whole array, with the fast string path")
				.isEqualTo(FastStringsJsonParser.class);
			assertThat(allocator.metric().usedHeapMemory()).as("the copy, released").isZero();
			Throwable failure = catchThrowable(() -> JsonSupport.parse(JsonSupport.DEFAULT_MAPPER, direct, (parser) -> {
				assertThat(allocator.metric().usedHeapMemory()).as("the copy, while read").isPositive();
				throw new IllegalStateException("reading failed");
			}));
			assertThat(failure).hasMessage("reading failed");
			assertThat(allocator.metric().usedHeapMemory()).as("the copy, released after a failure").isZero();
			assertThat(direct.readerIndex()).as("the caller advances the buffer").isZero();
		}
		finally {
			direct.release();
		}
	}

	@Test
	void aStringCutOffBeforeItsClosingQuoteIsJacksonsError() {
		String json = "[\"" + "a".repeat(100);
		Throwable fast = catchThrowable(() -> JsonSupport.DEFAULT_MAPPER.readValue(json.getBytes(), String[].class));
		Throwable jackson = catchThrowable(() -> JACKSON.readValue(json.getBytes(), String[].class));
		assertThat(fast).isNotNull().hasSameClassAs(jackson).hasMessage(jackson.getMessage());
	}

	@Test
	void plainStringsKeepJacksonsLengthLimitAndItsMessage() {
		JsonFactory settings = JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder().maxStringLength(100).build())
			.build();
		JsonMapper limited = JsonMapper.builder(new FastStringsJsonFactory(settings)).build();
		JsonMapper jackson = JsonMapper.builder(settings).build();
		for (int length : new int[] { 101, 300, 5_001 }) {
			byte[] json = ("[\"" + "a".repeat(length) + "\"]").getBytes();
			Throwable fast = catchThrowable(() -> limited.readValue(json, String[].class));
			assertThat(fast).isInstanceOf(StreamConstraintsException.class)
				.hasMessage(catchThrowable(() -> jackson.readValue(json, String[].class)).getMessage());
		}
		assertThat(limited.readValue(("[\"" + "a".repeat(100) + "\"]").getBytes(), String[].class)[0]).hasSize(100);
	}

	@Test
	void aRangeOutsideTheArrayIsJacksonsError() {
		byte[] json = "[\"a\"]".getBytes();
		Throwable fast = catchThrowable(() -> JsonSupport.DEFAULT_MAPPER.createParser(json, Integer.MAX_VALUE, 2));
		Throwable jackson = catchThrowable(() -> JACKSON.createParser(json, Integer.MAX_VALUE, 2));
		assertThat(fast).isNotNull().hasSameClassAs(jackson).hasMessage(jackson.getMessage());
	}

	@Test
	void escapesSetOnAGeneratorLaterAreKept() {
		String text = "the quick brown fox jumps over the lazy dog";
		ByteArrayOutputStream fast = new ByteArrayOutputStream();
		ByteArrayOutputStream jackson = new ByteArrayOutputStream();
		for (JsonMapper mapper : List.of(JsonSupport.DEFAULT_MAPPER, JACKSON)) {
			ByteArrayOutputStream out = (mapper == JACKSON) ? jackson : fast;
			try (JsonGenerator generator = mapper.createGenerator(out)) {
				generator.writeStartArray();
				generator.writeString(text);
				generator.setCharacterEscapes(new SpacesEscaped());
				generator.writeString(text);
				generator.writeEndArray();
			}
		}
		assertThat(fast.toString()).isEqualTo(jackson.toString()).contains("the_quick_brown");
	}

	@Test
	void copiesPlainStringsOnlyWithJsonsDefaultEscaping() {
		assertThat(generator(JsonSupport.DEFAULT_MAPPER).copiesPlainStrings()).isTrue();
		JsonMapper slashes = JsonSupport.DEFAULT_MAPPER.rebuild().enable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES).build();
		JsonMapper quotes = JsonMapper.builder(new FastStringsJsonFactory(JsonFactory.builder().quoteChar('\'').build()))
			.build();
		JsonMapper escapes = JsonMapper
			.builder(new FastStringsJsonFactory(JsonFactory.builder().characterEscapes(new SpacesEscaped()).build()))
			.build();
		Map<String, List<String>> value = Map.of("texts", List.of("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s",
				"it's a long enough string, isn't it", "spaces in a string long enough to be copied"));
		for (JsonMapper mapper : List.of(slashes, quotes, escapes)) {
			assertThat(generator(mapper).copiesPlainStrings()).isFalse();
		}
		assertThat(slashes.writeValueAsString(value)).contains("a\\/b");
		assertThat(new String(slashes.writeValueAsBytes(value)))
			.isEqualTo(JACKSON.rebuild().enable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES).build().writeValueAsString(value));
		assertThat(new String(quotes.writeValueAsBytes(value))).contains("'it\\'s a long");
		assertThat(new String(escapes.writeValueAsBytes(value))).contains("spaces_in_a");
	}

	@Test
	void survivesTheMapperBeingRebuilt() {
		JsonMapper rebuilt = JsonSupport.DEFAULT_MAPPER.rebuild().build();
		assertThat(rebuilt.tokenStreamFactory()).isInstanceOf(FastStringsJsonFactory.class);
		assertThat(generator(rebuilt).copiesPlainStrings()).isTrue();
	}

	private static FastStringsJsonGenerator generator(JsonMapper mapper) {
		try (JsonGenerator generator = mapper.createGenerator(new ByteArrayOutputStream())) {
			return (FastStringsJsonGenerator) generator;
		}
	}

	/**
	 * Strings of every length around the thresholds, mixing runs of plain ASCII with what JSON
	 * escapes or encodes in several bytes: control characters, quotes, backslashes, slashes,
	 * DEL, Latin-1, CJK, surrogate pairs; enough of them to cross the generator's buffer.
	 */
	private static List<String> texts(SplittableRandom random) {
		List<String> texts = new ArrayList<>();
		int count = 1 + random.nextInt(40);
		for (int i = 0; i < count; i++) {
			int length = switch (random.nextInt(4)) {
				case 0 -> random.nextInt(FastStringsJsonGenerator.MIN_LENGTH * 2);
				case 1 -> random.nextInt(1_990, 2_010);
				case 2 -> random.nextInt(4_100);
				default -> random.nextInt(600);
			};
			StringBuilder text = new StringBuilder(length);
			boolean plain = random.nextInt(3) > 0;
			while (text.length() < length) {
				if (plain || random.nextInt(20) > 0) {
					text.append((char) random.nextInt(' ', 0x7F));
				}
				else {
					text.append(special(random));
				}
			}
			texts.add(text.toString());
		}
		return texts;
	}

	private static String special(SplittableRandom random) {
		return switch (random.nextInt(9)) {
			case 0 -> String.valueOf((char) random.nextInt(0x20));
			case 1 -> "\"";
			case 2 -> "\\";
			case 3 -> "/";
			case 4 -> "\u007f";
			case 5 -> String.valueOf((char) random.nextInt(0x80, 0x100));
			case 6 -> String.valueOf((char) random.nextInt(0x4E00, 0x9FFF));
			case 7 -> new String(Character.toChars(random.nextInt(0x1F300, 0x1F5FF)));
			default -> "\u00e9";
		};
	}

	/** Escapes spaces as underscores, and JSON's own escapes as Jackson does. */
	private static final class SpacesEscaped extends CharacterEscapes {

		private static final long serialVersionUID = 1L;

		private final int[] escapes = standardAsciiEscapesForJSON();

		SpacesEscaped() {
			this.escapes[' '] = ESCAPE_CUSTOM;
		}

		@Override
		public int[] getEscapeCodesForAscii() {
			return this.escapes;
		}

		@Override
		public SerializableString getEscapeSequence(int ch) {
			return new SerializedString("_");
		}

	}

}
