package dev.slipcase.redis.sharded;

import java.util.Arrays;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.QueuedWrites;
import org.jspecify.annotations.Nullable;

/**
 * What a bucket field holds: a value, or the {@linkplain #OVERFLOW marker} saying that the value
 * of that key lives in its overflow key. A field that starts with byte {@code 0xF7} is either the
 * marker ({@code 0xF7} then any other byte) or a value that itself starts with {@code 0xF7}, stored
 * with one more {@code 0xF7} in front. {@code 0xF7} never starts text (it is no UTF-8 byte) and is a
 * reserved header byte of Slipcase's formats (see the wire format), so values are stored as they are
 * in practice, and {@code HINCRBY} works on numbers in place. Stateless.
 */
final class FieldValues {

	private static final byte ESCAPE = (byte) 0xF7;

	/** The marker of a value in its overflow key: two bytes, so it always fits a compact hash. */
	static final byte[] OVERFLOW = { ESCAPE, '>' };

	private FieldValues() {
	}

	/**
	 * Adds the field that stores {@code value} to the command started last: {@code value} itself,
	 * or, when it starts with the escape byte, the escape byte and then {@code value}, written
	 * together without a copy. The caller keeps owning {@code value}.
	 */
	static void add(QueuedWrites writes, EncodedValue value) {
		if (value.startsWith(ESCAPE)) {
			writes.add(ESCAPE, value);
		}
		else {
			writes.add(value);
		}
	}

	/** How many bytes the field of {@code value} takes. */
	static int encodedLength(EncodedValue value) {
		return value.startsWith(ESCAPE) ? value.size() + 1 : value.size();
	}

	/** How many bytes the field of {@code value} takes. */
	static int encodedLength(byte[] value) {
		return (value.length > 0 && value[0] == ESCAPE) ? value.length + 1 : value.length;
	}

	/** Whether a field holds the overflow marker. */
	static boolean isOverflow(byte @Nullable [] field) {
		return field != null && field.length >= 2 && field[0] == ESCAPE && field[1] != ESCAPE;
	}

	/**
	 * The value a field holds, {@code null} for none.
	 * @throws IllegalArgumentException when the field holds the overflow marker
	 */
	static byte @Nullable [] decode(byte @Nullable [] field) {
		if (field == null || field.length == 0 || field[0] != ESCAPE) {
			return field;
		}
		if (isOverflow(field) || field.length == 1) {
			throw new IllegalArgumentException("the field holds the overflow marker, not a value");
		}
		return Arrays.copyOfRange(field, 1, field.length);
	}

}
