package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.codec.EncodedValue;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;

/**
 * The RESP bytes of commands, written from byte arrays, numbers, keywords and encoded values
 * straight into the buffer Lettuce encodes a command into: the bytes Lettuce's {@code CommandArgs}
 * would write, without its objects. {@code GET}, {@code HGET} and {@code HMGET} for
 * {@link ValueReads}; any command, a header and then its arguments, for {@link QueuedWrites}.
 * Writes into the caller's buffer only, never consuming or releasing an encoded value; keeps
 * nothing.
 */
final class Resp {

	private static final byte[] GET = "$3\r\nGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HGET = "$4\r\nHGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HMGET = "$5\r\nHMGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private Resp() {
	}

	static void get(ByteBuf buf, byte[] key) {
		arrayHeader(buf, 2);
		buf.writeBytes(GET);
		bulk(buf, key);
	}

	static void hget(ByteBuf buf, byte[] key, byte[] field) {
		arrayHeader(buf, 3);
		buf.writeBytes(HGET);
		bulk(buf, key);
		bulk(buf, field);
	}

	static void hmget(ByteBuf buf, byte[] key, byte[][] fields) {
		arrayHeader(buf, 2 + fields.length);
		buf.writeBytes(HMGET);
		bulk(buf, key);
		for (byte[] field : fields) {
			bulk(buf, field);
		}
	}

	/** The start of command {@code type} with {@code arguments} arguments, which the caller writes next. */
	static void command(ByteBuf buf, ProtocolKeyword type, int arguments) {
		arrayHeader(buf, 1 + arguments);
		bulk(buf, type.getBytes());
	}

	/** An argument of bytes. */
	static void bulk(ByteBuf buf, byte[] bytes) {
		buf.writeByte('$');
		decimal(buf, bytes.length);
		buf.writeByte('\r').writeByte('\n');
		buf.writeBytes(bytes);
		buf.writeByte('\r').writeByte('\n');
	}

	/** An argument of an encoded value's bytes, which are not consumed. */
	static void bulk(ByteBuf buf, EncodedValue value) {
		buf.writeByte('$');
		decimal(buf, value.size());
		buf.writeByte('\r').writeByte('\n');
		value.writeTo(buf);
		buf.writeByte('\r').writeByte('\n');
	}

	/** An argument of byte {@code prefix} followed by an encoded value's bytes, which are not consumed. */
	static void bulk(ByteBuf buf, byte prefix, EncodedValue value) {
		buf.writeByte('$');
		decimal(buf, 1 + value.size());
		buf.writeByte('\r').writeByte('\n');
		buf.writeByte(prefix);
		value.writeTo(buf);
		buf.writeByte('\r').writeByte('\n');
	}

	/** A number argument, in ASCII digits. */
	static void bulk(ByteBuf buf, long number) {
		buf.writeByte('$');
		decimal(buf, digits(number));
		buf.writeByte('\r').writeByte('\n');
		decimal(buf, number);
		buf.writeByte('\r').writeByte('\n');
	}

	private static void arrayHeader(ByteBuf buf, int size) {
		buf.writeByte('*');
		decimal(buf, size);
		buf.writeByte('\r').writeByte('\n');
	}

	/** Writes {@code value} in ASCII digits, after a {@code -} when negative. */
	private static void decimal(ByteBuf buf, long value) {
		if (value < 0) {
			buf.writeByte('-');
		}
		long divisor = 1;
		while (value / divisor >= 10 || value / divisor <= -10) {
			divisor *= 10;
		}
		for (; divisor > 0; divisor /= 10) {
			buf.writeByte('0' + (int) Math.abs((value / divisor) % 10));
		}
	}

	/** How many characters {@code value} takes in ASCII digits, its sign included. */
	private static int digits(long value) {
		int digits = (value < 0) ? 2 : 1;
		for (long rest = value / 10; rest != 0; rest /= 10) {
			digits++;
		}
		return digits;
	}

}
