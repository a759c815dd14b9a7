package dev.slipcase.redis.serializer;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.json.JsonSupport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

import org.springframework.util.Assert;

/**
 * The format of an {@code Object} template's values: what its own format writes (tagged values of
 * the allowlisted types, read by {@code format}), and the untyped values other commands and
 * writers leave under the same keys, as plain Java values:
 * <ul>
 * <li>a JSON number of at most 64 characters, as Redis' {@code INCR} and {@code INCRBYFLOAT} and
 * Spring's {@code RedisSerializer.json()} write it: a {@link Long} (a {@link java.math.BigInteger}
 * beyond its range), or a {@link Double} when it has a fraction or an exponent (a whole
 * {@code INCRBYFLOAT} result such as {@code 3} is a {@code Long}: read counters as {@link Number});</li>
 * <li>{@code true} and {@code false}: a {@link Boolean};</li>
 * <li>a JSON string ({@code "hello"}, as {@code json()} writes a {@code String}): its text;</li>
 * <li>the empty value, and any other UTF-8 text without control characters ({@code APPEND}ed or
 * {@code SET} by another client): a {@link String} of that text.</li>
 * </ul>
 * What is none of these fails as the wrapped format's values do: a value that starts like a JSON
 * array or object ({@code [}, <code>{</code>), or a JSON string, is read by its JSON rules, so a
 * cut or corrupt one fails rather than reading as text; bytes that are not UTF-8 text fail too.
 * Only for templates, whose callers cast what they get: a cache must not answer a typed method
 * with a {@code Long}. Writes go to {@code format}. Never releases a buffer. Immutable and
 * thread-safe.
 */
public final class PlainValuesFormat implements ValueFormat<Object> {

	/** The longest value read as a number or boolean: anything longer starting so is text. */
	private static final int MAX_SCALAR_TEXT = 64;

	private final ValueFormat<Object> format;

	private PlainValuesFormat(ValueFormat<Object> format) {
		this.format = format;
	}

	/** {@code format}'s values, and the plain values other writers leave under the same keys. */
	public static PlainValuesFormat of(ValueFormat<Object> format) {
		Assert.notNull(format, "format must not be null");
		return (format instanceof PlainValuesFormat plain) ? plain : new PlainValuesFormat(format);
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		this.format.encode(value, out);
	}

	@Override
	public Object decode(ByteBuf in) {
		if (!in.isReadable()) {
			return "";
		}
		int start = in.readerIndex();
		int end = in.writerIndex();
		if (FormatHeader.isHeader(in.getByte(start))) {
			return this.format.decode(in);
		}
		int first = start;
		while (first < end && isWhitespace(in.getByte(first))) {
			first++;
		}
		byte lead = (first < end) ? in.getByte(first) : 0;
		if (lead == '[' || lead == '{') {
			return this.format.decode(in);
		}
		boolean scalar = lead == '"' || ((lead == '-' || lead == 't' || lead == 'f' || (lead >= '0' && lead <= '9'))
				&& in.readableBytes() <= MAX_SCALAR_TEXT);
		Object value = scalar ? jsonScalar(in, lead == '"') : null;
		if (value == null) {
			value = text(in);
		}
		in.readerIndex(end);
		return value;
	}

	/** The JSON number, boolean or string the whole value is; {@code null} when it is none. */
	private @Nullable Object jsonScalar(ByteBuf in, boolean string) {
		Object value;
		JacksonException failure = null;
		try {
			value = JsonSupport.parse(JsonSupport.DEFAULT_MAPPER, in, (parser) -> {
				Object scalar = scalar(parser);
				return (scalar != null && parser.nextToken() == null) ? scalar : null;
			});
		}
		catch (JacksonException ex) {
			value = null;
			failure = ex;
		}
		if (value == null && string) {
			throw FormatErrors.error(name(), "value starts as a JSON string but is not one", failure);
		}
		return value;
	}

	private static @Nullable Object scalar(JsonParser parser) {
		JsonToken token = parser.nextToken();
		if (token == null) {
			return null;
		}
		return switch (token) {
			case VALUE_STRING -> parser.getString();
			case VALUE_TRUE -> Boolean.TRUE;
			case VALUE_FALSE -> Boolean.FALSE;
			case VALUE_NUMBER_INT -> (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER)
					? parser.getBigIntegerValue() : (Object) parser.getLongValue();
			case VALUE_NUMBER_FLOAT -> {
				double number = parser.getDoubleValue();
				yield Double.isFinite(number) ? number : null;
			}
			default -> null;
		};
	}

	/** The value as UTF-8 text without control characters (tabs and line breaks aside). */
	private String text(ByteBuf in) {
		int index = in.readerIndex();
		int length = in.readableBytes();
		// the check Utf8StringFormat makes: well-formed UTF-8, decoded without a copy of the bytes
		if (!ByteBufUtil.isText(in, index, length, StandardCharsets.UTF_8)) {
			throw FormatErrors.error(name(), "value is neither a tagged value nor UTF-8 text (" + length + " bytes)");
		}
		String text = in.toString(index, length, StandardCharsets.UTF_8);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
				throw FormatErrors.error(name(), "value is neither a tagged value nor text: control character 0x"
						+ Integer.toHexString(c) + " at " + i);
			}
		}
		return text;
	}

	private static boolean isWhitespace(byte b) {
		return b == ' ' || b == '\t' || b == '\n' || b == '\r';
	}

	@Override
	public int estimateSize(Object value) {
		return this.format.estimateSize(value);
	}

	@Override
	public boolean isEstimateExact() {
		return this.format.isEstimateExact();
	}

	@Override
	public SlipcaseObserver observer() {
		return this.format.observer();
	}

	@Override
	public String name() {
		return this.format.name();
	}

}
