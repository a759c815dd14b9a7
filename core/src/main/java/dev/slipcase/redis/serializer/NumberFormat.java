package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Numbers as decimal ASCII with no header, exactly as Redis stores the results of {@code INCRBY},
 * {@code INCRBYFLOAT} and {@code HINCRBY}, so counters written through a serializer keep working
 * with those commands and values Redis incremented read back.
 * <p>
 * {@link #LONG} and {@link #INTEGER} accept only what Redis's own integer parsing accepts (an
 * optional {@code -} and digits, within range); {@link #DOUBLE} and {@link #BIG_DECIMAL} accept
 * decimal and exponent notation, as {@code INCRBYFLOAT} writes and reads ({@code Infinity} and
 * {@code NaN} are refused on both sides, as Redis refuses them). Values are at most
 * {@value #MAX_LENGTH} bytes. Works on any {@link ByteBuf}; never releases one. Thread-safe
 * singletons.
 *
 * @param <T> the type of number
 */
public final class NumberFormat<T extends Number> implements TaggedFormat<T> {

	/** The longest decimal accepted, in bytes: ample for any {@code long} or {@code double}. */
	public static final int MAX_LENGTH = 400;

	/** {@code Long}s, as {@code INCR}/{@code INCRBY} store them. */
	public static final NumberFormat<Long> LONG = new NumberFormat<>("number-long", Long.class, Long::parseLong,
			true);

	/** {@code Integer}s, as {@code INCR}/{@code INCRBY} store them. */
	public static final NumberFormat<Integer> INTEGER = new NumberFormat<>("number-int", Integer.class,
			Integer::parseInt, true);

	/** {@code Double}s in Java's shortest round-trip form, as {@code INCRBYFLOAT} reads them. */
	public static final NumberFormat<Double> DOUBLE = new NumberFormat<>("number-double", Double.class,
			Double::parseDouble, false);

	/** {@code BigDecimal}s in plain notation (scale kept), as {@code INCRBYFLOAT} reads them. */
	public static final NumberFormat<BigDecimal> BIG_DECIMAL = new NumberFormat<>("number-decimal",
			BigDecimal.class, BigDecimal::new, false);

	private final String name;

	private final Class<T> type;

	private final Function<String, T> parser;

	private final boolean integral;

	private NumberFormat(String name, Class<T> type, Function<String, T> parser, boolean integral) {
		this.name = name;
		this.type = type;
		this.parser = parser;
		this.integral = integral;
	}

	/** The type of number. */
	public Class<T> type() {
		return this.type;
	}

	@Override
	public void encode(T value, ByteBuf out) {
		ByteBufUtil.writeAscii(out, text(value));
	}

	private String text(T value) {
		if (value instanceof BigDecimal decimal) {
			return decimal.toPlainString();
		}
		if (value instanceof Double number && (number.isNaN() || number.isInfinite())) {
			throw FormatErrors.error(this.name, "cannot store " + number + ": Redis accepts only finite numbers");
		}
		return value.toString();
	}

	@Override
	public T decode(ByteBuf in) {
		int length = in.readableBytes();
		if (length == 0) {
			throw FormatErrors.error(this.name, "empty value");
		}
		if (length > MAX_LENGTH) {
			throw FormatErrors.error(this.name, "value of " + length + " bytes is longer than " + MAX_LENGTH);
		}
		int start = in.readerIndex();
		for (int i = start; i < start + length; i++) {
			if (!isNumberByte(in.getByte(i))) {
				throw FormatErrors.error(this.name,
						"byte 0x" + Integer.toHexString(in.getByte(i) & 0xFF) + " at " + (i - start) + " is not part of a "
								+ (this.integral ? "decimal integer" : "decimal number"));
			}
		}
		String text = in.toString(start, length, StandardCharsets.US_ASCII);
		try {
			T value = this.parser.apply(text);
			if (value instanceof Double number && (number.isNaN() || number.isInfinite())) {
				throw FormatErrors.error(this.name, "'" + text + "' is out of range");
			}
			if (value instanceof BigDecimal decimal && Math.abs((long) decimal.scale()) > MAX_LENGTH) {
				throw FormatErrors.error(this.name, "'" + text + "' has an exponent beyond " + MAX_LENGTH
						+ " digits, which plain notation could not store");
			}
			in.skipBytes(length);
			return value;
		}
		catch (NumberFormatException | ArithmeticException ex) {
			throw FormatErrors.error(this.name, "'" + text + "' is not a valid " + this.type.getSimpleName(), ex);
		}
	}

	private boolean isNumberByte(byte b) {
		if ((b >= '0' && b <= '9') || b == '-') {
			return true;
		}
		return !this.integral && (b == '.' || b == 'e' || b == 'E' || b == '+');
	}

	@Override
	public int estimateSize(T value) {
		return text(value).length();
	}

	@Override
	public boolean isEstimateExact() {
		return true;
	}

	@Override
	public int formatId() {
		return FormatHeader.NUMBER;
	}

	@Override
	public boolean isText() {
		return true;
	}

	@Override
	public String name() {
		return this.name;
	}

}
