package dev.slipcase.redis.serializer.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * gzip compression with the JDK's zlib ({@link Deflater}/{@link Inflater}), id {@value #ID}: no
 * extra dependency, a ratio between LZ4's and Zstd's, and the slowest of the three.
 * <p>
 * Each value is one gzip member (RFC 1952: a 10-byte header, deflate data, CRC-32 and size), so
 * {@code redis-cli --raw GET key | gunzip} shows it. The CRC-32 makes a bit flip an error rather
 * than a silently different value.
 * <p>
 * Decompression refuses, before inflating, a member whose size field says it is larger than
 * {@code maxDecompressedSize} (the field holds the size modulo 2<sup>32</sup>, so such a value
 * really is larger), and then inflates in bounded steps that stop at the cap, so a member that
 * lies about its size is refused too, having allocated at most about the cap. Header fields
 * written by other gzip tools (name, comment, extra, header CRC) are accepted; several members
 * in one value are not.
 * <p>
 * Works on heap and direct buffers, array-backed or not, without copying them. Callers own both
 * buffers; this class never releases or retains them. Immutable and thread-safe: the native zlib
 * streams are pooled per instance.
 */
public final class GzipCompressor extends LevelledCompressor {

	/** The id in the format header, stable forever. */
	public static final int ID = 3;

	/** The name: {@value}. */
	public static final String NAME = "gzip";

	/** The default level, zlib's own default. */
	public static final int DEFAULT_LEVEL = 6;

	private static final int HEADER_SIZE = 10;

	private static final int TRAILER_SIZE = 8;

	private static final int FHCRC = 0x02;

	private static final int FEXTRA = 0x04;

	private static final int FNAME = 0x08;

	private static final int FCOMMENT = 0x10;

	private static final int RESERVED_FLAGS = 0xE0;

	/** Deflate's largest expansion: a 258-byte match costs at least two bits. */
	private static final long MAX_RATIO = 1032;

	private static final int MIN_STEP = 8 * 1024;

	private final ContextPool<Deflater> deflaters;

	private final ContextPool<Inflater> inflaters;

	private GzipCompressor(int level) {
		super(ID, NAME, level);
		this.deflaters = new ContextPool<>(ContextPool.defaultMaxIdle(), () -> new Deflater(level, true), Deflater::end);
		this.inflaters = new ContextPool<>(ContextPool.defaultMaxIdle(), () -> new Inflater(true), Inflater::end);
	}

	/** gzip at the {@linkplain #DEFAULT_LEVEL default level}. */
	public static GzipCompressor create() {
		return create(DEFAULT_LEVEL);
	}

	/**
	 * gzip at {@code level}.
	 * @param level from 1 (fastest) to 9 (smallest)
	 * @throws IllegalArgumentException when the level is out of range
	 */
	public static GzipCompressor create(int level) {
		if (level < 1 || level > 9) {
			throw new IllegalArgumentException("level must be between 1 and 9, was " + level);
		}
		return new GzipCompressor(level);
	}

	@Override
	public void compress(ByteBuf in, ByteBuf out) {
		int length = in.readableBytes();
		int start = out.writerIndex();
		Deflater deflater = this.deflaters.acquire();
		try (Span source = Span.readable(in)) {
			CRC32 crc = new CRC32();
			if (source.isArray()) {
				crc.update(source.array(), source.offset(), length);
				deflater.setInput(source.array(), source.offset(), length);
			}
			else {
				crc.update(source.directRegion());
				deflater.setInput(source.directRegion());
			}
			out.writeShort(0x1f8b).writeByte(Deflater.DEFLATED).writeByte(0).writeIntLE(0);
			out.writeByte((level() == 9) ? 2 : (level() == 1) ? 4 : 0).writeByte(255);
			deflater.finish();
			int step = (int) Math.min(Integer.MAX_VALUE - 64, length + (length >>> 12) + (length >>> 14) + 64L);
			while (!deflater.finished()) {
				try (Span target = Span.writable(out, step)) {
					target.commit(out, target.isArray()
							? deflater.deflate(target.array(), target.offset(), target.length())
							: deflater.deflate(target.directRegion()));
				}
				step = Math.max(step, MIN_STEP);
			}
			out.writeIntLE((int) crc.getValue()).writeIntLE(length);
			in.skipBytes(length);
		}
		catch (RuntimeException ex) {
			out.writerIndex(start);
			throw Failures.compress(NAME, String.valueOf(ex.getMessage()), ex);
		}
		finally {
			deflater.reset();
			this.deflaters.release(deflater);
		}
	}

	@Override
	public void decompress(ByteBuf in, ByteBuf out, int maxDecompressedSize) {
		Failures.checkMaxDecompressedSize(maxDecompressedSize);
		int outStart = out.writerIndex();
		try {
			decompressMember(in, out, maxDecompressedSize);
		}
		catch (SerializationException ex) {
			out.writerIndex(outStart);
			throw ex;
		}
		catch (IndexOutOfBoundsException ex) {
			out.writerIndex(outStart);
			throw Failures.outputFull(NAME, Math.min(maxDecompressedSize, out.maxCapacity() - outStart), ex);
		}
	}

	private void decompressMember(ByteBuf in, ByteBuf out, int maxDecompressedSize) {
		int start = in.readerIndex();
		int end = in.writerIndex();
		if (end - start < HEADER_SIZE + TRAILER_SIZE) {
			throw Failures.decompress(NAME, "truncated: " + (end - start) + " bytes, shorter than a gzip member");
		}
		if (in.getUnsignedShort(start) != 0x1f8b || in.getUnsignedByte(start + 2) != Deflater.DEFLATED) {
			throw Failures.decompress(NAME, "not gzip data (no gzip magic number and deflate method)");
		}
		int flags = in.getUnsignedByte(start + 3);
		if ((flags & RESERVED_FLAGS) != 0) {
			throw Failures.decompress(NAME, "corrupt gzip header (reserved flags set)");
		}
		int trailer = end - TRAILER_SIZE;
		int position = start + HEADER_SIZE;
		if ((flags & FEXTRA) != 0) {
			position = checkHeaderField(position + 2, trailer);
			position = checkHeaderField(position + in.getUnsignedShortLE(position - 2), trailer);
		}
		if ((flags & FNAME) != 0) {
			position = skipZeroTerminated(in, position, trailer);
		}
		if ((flags & FCOMMENT) != 0) {
			position = skipZeroTerminated(in, position, trailer);
		}
		if ((flags & FHCRC) != 0) {
			position = checkHeaderField(position + 2, trailer);
			CRC32 headerCrc = new CRC32();
			for (ByteBuffer part : in.nioBuffers(start, position - 2 - start)) {
				headerCrc.update(part);
			}
			if ((headerCrc.getValue() & 0xFFFF) != in.getUnsignedShortLE(position - 2)) {
				throw Failures.decompress(NAME, "corrupt gzip header (header CRC mismatch)");
			}
		}
		long declaredSize = in.getUnsignedIntLE(end - 4);
		if (declaredSize > maxDecompressedSize) {
			throw Failures.declaresTooMuch(NAME, String.valueOf(declaredSize), maxDecompressedSize);
		}
		int deflatedLength = trailer - position;
		long limit = (long) maxDecompressedSize + 1;
		// a first step no larger than the declared size, which is only a hint, nor than deflate can expand to
		long step = Math.max(1, Math.min(declaredSize, deflatedLength * MAX_RATIO + MAX_RATIO));
		long written = 0;
		CRC32 crc = new CRC32();
		Inflater inflater = this.inflaters.acquire();
		try (Span source = Span.readable(in, position, deflatedLength)) {
			if (source.isArray()) {
				inflater.setInput(source.array(), source.offset(), deflatedLength);
			}
			else {
				inflater.setInput(source.directRegion());
			}
			while (!inflater.finished()) {
				int room = (int) Math.min(step, limit - written);
				int inflated;
				try (Span target = Span.writable(out, room)) {
					if (target.isArray()) {
						inflated = inflater.inflate(target.array(), target.offset(), room);
						crc.update(target.array(), target.offset(), inflated);
					}
					else {
						inflated = inflater.inflate(target.directRegion());
						crc.update(target.directRegion(0, inflated));
					}
					target.commit(out, inflated);
				}
				written += inflated;
				if (written > maxDecompressedSize) {
					throw Failures.inflatesTooMuch(NAME, maxDecompressedSize);
				}
				if (inflated == 0 && !inflater.finished()) {
					if (inflater.needsDictionary()) {
						throw Failures.decompress(NAME, "corrupt: the deflate data needs a preset dictionary");
					}
					if (inflater.needsInput()) {
						throw Failures.decompress(NAME, "truncated: the deflate data ends early");
					}
					if (room > 0) {
						throw Failures.decompress(NAME, "corrupt: the deflate data makes no progress");
					}
				}
				step = Math.max(MIN_STEP, Math.min(written, 1L << 24));
			}
			if (inflater.getRemaining() != 0) {
				throw Failures.decompress(NAME,
						"corrupt: " + inflater.getRemaining() + " bytes between the deflate data and the gzip trailer");
			}
		}
		catch (DataFormatException ex) {
			throw Failures.decompress(NAME, "corrupt deflate data (" + ex.getMessage() + ")", ex);
		}
		finally {
			inflater.reset();
			this.inflaters.release(inflater);
		}
		if (written != declaredSize) {
			throw Failures.decompress(NAME, "corrupt: it inflated to " + written + " bytes but declares " + declaredSize);
		}
		if ((int) crc.getValue() != in.getIntLE(trailer)) {
			throw Failures.decompress(NAME, "corrupt: CRC-32 mismatch");
		}
		in.readerIndex(end);
	}

	private static int checkHeaderField(int position, int trailer) {
		if (position > trailer) {
			throw Failures.decompress(NAME, "truncated gzip header");
		}
		return position;
	}

	private static int skipZeroTerminated(ByteBuf in, int position, int trailer) {
		int zero = in.indexOf(position, trailer, (byte) 0);
		if (zero < 0) {
			throw Failures.decompress(NAME, "truncated gzip header (unterminated name or comment)");
		}
		return zero + 1;
	}

	@Override
	public String toString() {
		return "GzipCompressor[level=" + level() + "]";
	}

}
