package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;

/**
 * The RESP bytes of {@code GET}, {@code HGET} and {@code HMGET}, written from byte arrays straight
 * into the buffer Lettuce encodes a command into: the bytes Lettuce's {@code CommandArgs} would
 * write, without its objects. Writes into the caller's buffer only; keeps nothing.
 */
final class RespReads {

	private static final byte[] GET = "$3\r\nGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HGET = "$4\r\nHGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] HMGET = "$5\r\nHMGET\r\n".getBytes(StandardCharsets.US_ASCII);

	private RespReads() {
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

	private static void arrayHeader(ByteBuf buf, int size) {
		buf.writeByte('*');
		decimal(buf, size);
		buf.writeByte('\r').writeByte('\n');
	}

	private static void bulk(ByteBuf buf, byte[] bytes) {
		buf.writeByte('$');
		decimal(buf, bytes.length);
		buf.writeByte('\r').writeByte('\n');
		buf.writeBytes(bytes);
		buf.writeByte('\r').writeByte('\n');
	}

	/** Writes {@code value}, never negative, in ASCII digits. */
	private static void decimal(ByteBuf buf, int value) {
		int divisor = 1;
		while (divisor <= value / 10) {
			divisor *= 10;
		}
		for (; divisor > 0; divisor /= 10) {
			buf.writeByte('0' + (value / divisor) % 10);
		}
	}

}
