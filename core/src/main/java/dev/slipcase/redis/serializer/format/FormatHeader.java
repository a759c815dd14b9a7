package dev.slipcase.redis.serializer.format;

import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * The two-byte header that makes a stored value say what it is; the byte layout is documented in
 * {@code docs/wire-format.md}.
 * <pre>
 * byte 0: 1111 1ccc   0xF8 | compressor id (ccc = 0: not compressed, 1..7: Compressor.id())
 * byte 1: format id   1 string, 2 json, 3 polymorphic json, 4 protostuff, 5 number, 6 bytes,
 *                     7 polymorphic protostuff
 * </pre>
 * Byte 0 is always in {@code 0xF8..0xFF}: such bytes never occur in valid UTF-8, so they can
 * never start a JSON document, a decimal number or any text a {@code StringRedisSerializer}
 * wrote. A value whose first byte is below {@code 0xF5} has no header and is the body of a text
 * format. {@code 0xF5..0xF7} are reserved for future header versions and refused today.
 * <p>
 * This class only reads and writes bytes at the buffers' indexes; it never releases a buffer.
 */
public final class FormatHeader {

	/** The header's length in bytes. */
	public static final int LENGTH = 2;

	/** The lowest first byte that marks a header (any version). */
	public static final int RESERVED_MIN = 0xF5;

	/** The first byte of a version-1 header, with compressor id 0. */
	public static final int MARKER = 0xF8;

	/** Format id of {@link dev.slipcase.redis.serializer.Utf8StringFormat}. */
	public static final int STRING = 1;

	/** Format id of {@link dev.slipcase.redis.serializer.json.JsonFormat}. */
	public static final int JSON = 2;

	/** Format id of {@link dev.slipcase.redis.serializer.json.PolymorphicJsonFormat}. */
	public static final int POLYMORPHIC_JSON = 3;

	/** Format id of {@link dev.slipcase.redis.serializer.protostuff.ProtostuffFormat}. */
	public static final int PROTOSTUFF = 4;

	/** Format id of {@link dev.slipcase.redis.serializer.NumberFormat}. */
	public static final int NUMBER = 5;

	/** Format id of {@link dev.slipcase.redis.serializer.BytesFormat}. */
	public static final int BYTES = 6;

	/** Format id of {@link dev.slipcase.redis.serializer.protostuff.PolymorphicProtostuffFormat}. */
	public static final int POLYMORPHIC_PROTOSTUFF = 7;

	/** Format id of {@link dev.slipcase.redis.serializer.fory.ForyFormat}. */
	public static final int FORY = 8;

	private FormatHeader() {
	}

	/** Whether {@code firstByte} starts a header (of any version, including reserved ones). */
	public static boolean isHeader(byte firstByte) {
		return (firstByte & 0xFF) >= RESERVED_MIN;
	}

	/**
	 * Writes a header at {@code out}'s writer index. The caller owns {@code out} and releases it;
	 * this method never releases or retains it.
	 * @param formatId the body's format id, 1..255
	 * @param compressorId 0 when the body is not compressed, else the compressor's id, 1..7
	 */
	public static void write(ByteBuf out, int formatId, int compressorId) {
		if (formatId < 1 || formatId > 255) {
			throw new IllegalArgumentException("formatId must be between 1 and 255, was " + formatId);
		}
		if (compressorId < 0 || compressorId > 7) {
			throw new IllegalArgumentException("compressorId must be between 0 and 7, was " + compressorId);
		}
		out.writeByte(MARKER | compressorId);
		out.writeByte(formatId);
	}

	/**
	 * Reads the header at {@code in}'s reader index, advancing it by {@link #LENGTH}. The caller
	 * owns {@code in} and releases it; this method never releases or retains it.
	 * @return {@code formatId << 8 | compressorId}; see {@link #formatId(int)} and
	 * {@link #compressorId(int)}
	 * @throws SerializationException when the bytes there are not a supported header
	 */
	public static int read(ByteBuf in, String formatName) {
		if (in.readableBytes() < LENGTH) {
			throw new SerializationException(formatName + ": truncated header: " + in.readableBytes()
					+ " byte(s) where the header needs " + LENGTH);
		}
		int first = in.readUnsignedByte();
		if (first < MARKER) {
			throw new SerializationException(formatName + ": unsupported header version 0x"
					+ Integer.toHexString(first).toUpperCase() + " (written by a newer Slipcase?)");
		}
		int formatId = in.readUnsignedByte();
		if (formatId == 0) {
			throw new SerializationException(formatName + ": invalid format id 0 in header");
		}
		return (formatId << 8) | (first & 0x07);
	}

	/** The format id of a header {@link #read}. */
	public static int formatId(int header) {
		return header >>> 8;
	}

	/** The compressor id of a header {@link #read}: 0 when not compressed. */
	public static int compressorId(int header) {
		return header & 0x07;
	}

}
