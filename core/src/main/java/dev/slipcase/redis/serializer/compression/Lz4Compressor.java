package dev.slipcase.redis.serializer.compression;

import java.nio.ByteBuffer;

import io.netty.buffer.ByteBuf;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * LZ4 compression through lz4-java, id {@value #ID}: the fastest of the three, with the lowest
 * ratio. Uses lz4-java's native library where it loads, else its pure-Java implementation; only
 * the bounds-checked ("safe") decompressor is ever used.
 * <p>
 * An LZ4 block does not record its decompressed size, so each value is laid out as:
 * <pre>
 * decompressed size   unsigned LEB128 varint, 1 to 5 bytes
 * checksum            4 bytes, big-endian: XXH32 (seed 0) of the decompressed bytes
 * LZ4 block           the rest (LZ4 block format, not the LZ4 frame format)
 * </pre>
 * The size is checked against {@code maxDecompressedSize}, and against the most an LZ4 block of
 * that length can expand to (255 times), before any memory is allocated; the checksum makes a bit
 * flip an error rather than a silently different value.
 * <p>
 * Works on heap and direct buffers, array-backed or not. Callers own both buffers; this class
 * never releases or retains them. Immutable and thread-safe.
 */
public final class Lz4Compressor extends LevelledCompressor {

	/** The id in the format header, stable forever. */
	public static final int ID = 1;

	/** The name: {@value}. */
	public static final String NAME = "lz4";

	/** Each byte of an LZ4 block expands to at most 255 bytes. */
	private static final long MAX_RATIO = 255;

	private static final int CHECKSUM_SEED = 0;

	private static final int PREFIX_MAX = 5 + 4;

	private final LZ4Compressor compressor;

	private final LZ4SafeDecompressor decompressor;

	private final XXHash32 checksum;

	private Lz4Compressor(int level) {
		super(ID, NAME, level);
		LZ4Factory factory = LZ4Factory.fastestInstance();
		this.compressor = (level == 0) ? factory.fastCompressor() : factory.highCompressor(level);
		this.decompressor = factory.safeDecompressor();
		this.checksum = XXHashFactory.fastestInstance().hash32();
	}

	/** LZ4's fast compressor. */
	public static Lz4Compressor create() {
		return new Lz4Compressor(0);
	}

	/**
	 * LZ4 HC, slower to compress for a better ratio, as fast to decompress; its values are read by
	 * any {@code Lz4Compressor}.
	 * @param level from 1 to 17
	 * @throws IllegalArgumentException when the level is out of range
	 */
	public static Lz4Compressor highCompression(int level) {
		if (level < 1 || level > 17) {
			throw new IllegalArgumentException("level must be between 1 and 17, was " + level);
		}
		return new Lz4Compressor(level);
	}

	@Override
	public void compress(ByteBuf in, ByteBuf out) {
		int length = in.readableBytes();
		int start = out.writerIndex();
		try (Span source = Span.readable(in)) {
			int bound = this.compressor.maxCompressedLength(length);
			out.ensureWritable(PREFIX_MAX + bound);
			writeVarInt(out, length);
			out.writeInt(checksum(source, length));
			try (Span target = Span.writable(out, bound, !source.isArray())) {
				int written;
				if (source.isArray() && target.isArray()) {
					written = this.compressor.compress(source.array(), source.offset(), length, target.array(),
							target.offset(), bound);
				}
				else {
					written = this.compressor.compress(byteBuffer(source), source.offset(), length, byteBuffer(target),
							target.offset(), bound);
				}
				target.commit(out, written);
			}
			in.skipBytes(length);
		}
		catch (LZ4Exception | IndexOutOfBoundsException | IllegalArgumentException ex) {
			out.writerIndex(start);
			throw Failures.compress(NAME, String.valueOf(ex.getMessage()), ex);
		}
	}

	@Override
	public void decompress(ByteBuf in, ByteBuf out, int maxDecompressedSize) {
		Failures.checkMaxDecompressedSize(maxDecompressedSize);
		int inStart = in.readerIndex();
		int outStart = out.writerIndex();
		try {
			long size = readVarInt(in);
			if (size > maxDecompressedSize) {
				throw Failures.declaresTooMuch(NAME, String.valueOf(size), maxDecompressedSize);
			}
			if (in.readableBytes() < 5) {
				throw Failures.decompress(NAME, "truncated: no room for the checksum and an LZ4 block");
			}
			int expectedChecksum = in.readInt();
			int length = in.readableBytes();
			if (size > length * MAX_RATIO) {
				throw Failures.decompress(NAME,
						"corrupt: it declares " + size + " bytes, more than an LZ4 block of " + length + " can hold");
			}
			try (Span source = Span.readable(in); Span target = Span.writable(out, (int) size, !source.isArray())) {
				int written;
				if (source.isArray() && target.isArray()) {
					written = this.decompressor.decompress(source.array(), source.offset(), length, target.array(),
							target.offset(), (int) size);
				}
				else {
					written = this.decompressor.decompress(byteBuffer(source), source.offset(), length,
							byteBuffer(target), target.offset(), (int) size);
				}
				if (written != size) {
					throw Failures.decompress(NAME,
							"corrupt: it decompressed to " + written + " bytes but declares " + size);
				}
				if (checksum(target, written) != expectedChecksum) {
					throw Failures.decompress(NAME, "corrupt: checksum mismatch");
				}
				target.commit(out, written);
			}
			in.skipBytes(length);
		}
		catch (SerializationException ex) {
			in.readerIndex(inStart);
			out.writerIndex(outStart);
			throw ex;
		}
		catch (LZ4Exception | IndexOutOfBoundsException | IllegalArgumentException ex) {
			in.readerIndex(inStart);
			out.writerIndex(outStart);
			throw Failures.decompress(NAME, (ex instanceof IndexOutOfBoundsException)
					? "corrupt or truncated LZ4 block: it reaches past the end of its input or output"
					: "corrupt or truncated LZ4 block (" + ex.getMessage() + ")", ex);
		}
	}

	private int checksum(Span span, int length) {
		if (span.isArray()) {
			return this.checksum.hash(span.array(), span.offset(), length, CHECKSUM_SEED);
		}
		ByteBuffer direct = span.direct();
		return this.checksum.hash(direct, span.offset(), length, CHECKSUM_SEED);
	}

	/** The span as a buffer for lz4-java's offset-based API (which never moves positions). */
	private static ByteBuffer byteBuffer(Span span) {
		return span.isArray() ? ByteBuffer.wrap(span.array()) : span.direct();
	}

	private static void writeVarInt(ByteBuf out, int value) {
		int remaining = value;
		while ((remaining & ~0x7F) != 0) {
			out.writeByte((remaining & 0x7F) | 0x80);
			remaining >>>= 7;
		}
		out.writeByte(remaining);
	}

	private static long readVarInt(ByteBuf in) {
		long value = 0;
		for (int shift = 0; shift < 35; shift += 7) {
			if (!in.isReadable()) {
				throw Failures.decompress(NAME, "truncated: the size prefix ends early");
			}
			int b = in.readUnsignedByte();
			value |= (long) (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				return value;
			}
		}
		throw Failures.decompress(NAME, "corrupt: the size prefix is longer than 5 bytes");
	}

	@Override
	public String toString() {
		return "Lz4Compressor[level=" + level() + "]";
	}

}
