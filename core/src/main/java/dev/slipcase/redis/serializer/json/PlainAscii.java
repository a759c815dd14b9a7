package dev.slipcase.redis.serializer.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds how many bytes of a run are plain JSON string content: ASCII that JSON writes as itself,
 * with no quote, backslash or control character to escape and nothing above {@code 0x7F} to
 * decode. Eight bytes at a time, with the usual "has a byte below n" word tricks.
 */
final class PlainAscii {

	private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.LITTLE_ENDIAN);

	private static final long ONES = 0x0101010101010101L;

	private static final long HIGH_BITS = 0x8080808080808080L;

	private static final long QUOTES = '"' * ONES;

	private static final long BACKSLASHES = '\\' * ONES;

	private static final long SPACES = ' ' * ONES;

	private PlainAscii() {
	}

	/**
	 * The index of the first byte in {@code bytes[from, to)} that is not plain JSON string
	 * content, or {@code to} when every byte is.
	 */
	static int end(byte[] bytes, int from, int to) {
		int index = from;
		while (index + Long.BYTES <= to) {
			long word = (long) LONGS.get(bytes, index);
			long quotes = word ^ QUOTES;
			long backslashes = word ^ BACKSLASHES;
			// A byte's high bit is set in each term when that byte is non-ASCII, below a space,
			// a quote or a backslash (x - n borrows into a byte below n; & ~x drops bytes >= 0x80).
			long special = (word | ((word - SPACES) & ~word) | ((quotes - ONES) & ~quotes)
					| ((backslashes - ONES) & ~backslashes)) & HIGH_BITS;
			if (special != 0) {
				break;
			}
			index += Long.BYTES;
		}
		while (index < to && isPlain(bytes[index])) {
			index++;
		}
		return index;
	}

	private static boolean isPlain(byte value) {
		return value >= ' ' && value != '"' && value != '\\';
	}

}
