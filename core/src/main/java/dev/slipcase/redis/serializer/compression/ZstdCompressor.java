package dev.slipcase.redis.serializer.compression;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * Zstandard compression through zstd-jni, id {@value #ID}: a good ratio at a speed close to LZ4's,
 * and with a {@link ZstdDictionary} the only one of the three that shrinks values of about 100
 * bytes substantially.
 * <p>
 * Each value is one Zstd frame (RFC 8878) in Zstd's "magicless" format: without the 4-byte
 * magic number, which the format header makes redundant and which would cost 4 bytes on every
 * small value. Prepend {@code 28 b5 2f fd} to read a value with the {@code zstd} command line
 * tool ({@code -D dictionary} where needed). Standard frames, with the magic number, are read
 * too. Each frame declares its content size, carries a content checksum (so a bit flip is an
 * error, not a silently different value) and, when written with a dictionary, that dictionary's
 * id (1 byte for ids up to 255, see {@link ZstdDictionary#train(java.util.Collection, int, long)}).
 * <p>
 * Decompression reads the frame header first and refuses, before allocating, a frame that
 * declares more than {@code maxDecompressedSize} bytes or names a dictionary that is not loaded.
 * A frame that declares no size (as streaming writers produce) is refused when its window is
 * larger than both the cap and 8 MiB, and is otherwise decompressed in bounded steps that stop
 * at the cap. The frame's dictionary id picks the
 * dictionary from {@link #dictionaries()}, whichever dictionary this compressor writes with.
 * <p>
 * Works on heap and direct buffers, array-backed or not, without copying when both buffers are
 * of the same kind (zstd-jni takes arrays or direct buffers). Callers own both buffers; this
 * class never releases or retains them. Immutable and thread-safe: native contexts are pooled
 * per instance and freed when the instance becomes unreachable.
 */
public final class ZstdCompressor extends LevelledCompressor {

	/** The id in the format header, stable forever. */
	public static final int ID = 2;

	/** The name: {@value}. */
	public static final String NAME = "zstd";

	/** The default level, Zstandard's own default. */
	public static final int DEFAULT_LEVEL = 3;

	private static final Cleaner CLEANER = Cleaner.create();

	private static final int STREAM_STEP = 64 * 1024;

	/** A block that produces anything takes at least 4 bytes (3 of header, 1 of content)... */
	private static final int MIN_BLOCK_SIZE = 4;

	/** ...and produces at most 128 KiB. */
	private static final long MAX_BLOCK_CONTENT = 128 * 1024;

	/**
	 * The largest window a frame without a declared size may use when the cap is smaller: the
	 * window of the {@code zstd} tool's levels up to 19 (native memory, held only while decoding).
	 */
	private static final long MAX_STREAMING_WINDOW = 8 * 1024 * 1024;

	private final @Nullable ZstdDictionary dictionary;

	private final ZstdDictionaries dictionaries;

	private final ContextPool<ZstdCompressCtx> compressContexts;

	private final ContextPool<ZstdDecompressCtx> decompressContexts;

	private ZstdCompressor(int level, @Nullable ZstdDictionary dictionary, ZstdDictionaries dictionaries) {
		super(ID, NAME, level);
		this.dictionary = dictionary;
		this.dictionaries = (dictionary != null) ? dictionaries.with(dictionary) : dictionaries;
		ZstdDictCompress compressDictionary = (dictionary != null) ? dictionary.forCompression(level) : null;
		this.compressContexts = new ContextPool<>(ContextPool.defaultMaxIdle(),
				() -> newCompressContext(level, compressDictionary), ZstdCompressCtx::close);
		this.decompressContexts = new ContextPool<>(ContextPool.defaultMaxIdle(), ZstdDecompressCtx::new,
				ZstdDecompressCtx::close);
		CLEANER.register(this, this.compressContexts);
		CLEANER.register(this, this.decompressContexts);
	}

	/** Zstd at the {@linkplain #DEFAULT_LEVEL default level}, without a dictionary. */
	public static ZstdCompressor create() {
		return create(DEFAULT_LEVEL);
	}

	/**
	 * Zstd at {@code level}, without a dictionary.
	 * @param level from {@code Zstd.minCompressionLevel()} (negative: faster, larger) to 22;
	 * levels above 19 need much memory
	 * @throws IllegalArgumentException when the level is out of range
	 * @throws IllegalStateException when zstd-jni's native library cannot be loaded on this platform
	 */
	public static ZstdCompressor create(int level) {
		int min;
		int max;
		try {
			min = Zstd.minCompressionLevel();
			max = Zstd.maxCompressionLevel();
		}
		catch (LinkageError ex) {
			throw new IllegalStateException("zstd-jni's native library cannot be loaded on this platform", ex);
		}
		if (level < min || level > max || level == 0) {
			throw new IllegalArgumentException("level must be between " + min + " and " + max + " and not 0, was " + level);
		}
		return new ZstdCompressor(level, null, ZstdDictionaries.none());
	}

	/**
	 * A compressor like this one that compresses with {@code dictionary}, and can also read values
	 * written with it (in addition to {@link #dictionaries()}).
	 */
	public ZstdCompressor withDictionary(ZstdDictionary dictionary) {
		Assert.notNull(dictionary, "dictionary must not be null");
		return new ZstdCompressor(level(), dictionary, this.dictionaries);
	}

	/**
	 * A compressor like this one that can read values written with any of {@code dictionaries}
	 * (and with the dictionary it writes with, if any).
	 */
	public ZstdCompressor withDictionaries(ZstdDictionaries dictionaries) {
		Assert.notNull(dictionaries, "dictionaries must not be null");
		return new ZstdCompressor(level(), this.dictionary, dictionaries);
	}

	/** The dictionary values are compressed with, or {@code null} for none. */
	public @Nullable ZstdDictionary dictionary() {
		return this.dictionary;
	}

	/** The dictionaries values can be decompressed with, including {@link #dictionary()}. */
	public ZstdDictionaries dictionaries() {
		return this.dictionaries;
	}

	@Override
	public void compress(ByteBuf in, ByteBuf out) {
		int length = in.readableBytes();
		long bound = Zstd.compressBound(length);
		if (bound > Integer.MAX_VALUE - 16) {
			throw Failures.compress(NAME, length + " bytes are too many to compress into one buffer", null);
		}
		int start = out.writerIndex();
		ZstdCompressCtx context = this.compressContexts.acquire();
		try (Span source = Span.readable(in); Span target = Span.writable(out, (int) bound, !source.isArray())) {
			int written;
			if (source.isArray()) {
				written = context.compressByteArray(target.array(), target.offset(), target.length(), source.array(),
						source.offset(), length);
			}
			else {
				written = context.compressDirectByteBuffer(target.direct(), target.offset(), target.length(),
						source.direct(), source.offset(), length);
			}
			target.commit(out, written);
			in.skipBytes(length);
		}
		catch (ZstdException | IndexOutOfBoundsException ex) {
			out.writerIndex(start);
			throw Failures.compress(NAME, String.valueOf(ex.getMessage()), ex);
		}
		finally {
			this.compressContexts.release(context);
			Reference.reachabilityFence(this);
		}
	}

	@Override
	public void decompress(ByteBuf in, ByteBuf out, int maxDecompressedSize) {
		Failures.checkMaxDecompressedSize(maxDecompressedSize);
		int outStart = out.writerIndex();
		try {
			ZstdFrameHeader header = ZstdFrameHeader.read(in, NAME);
			ZstdDictionary dictionary = null;
			if (header.dictionaryId() != 0) {
				dictionary = this.dictionaries.find(header.dictionaryId());
				if (dictionary == null) {
					throw Failures.decompress(NAME, "it was compressed with zstd dictionary " + header.dictionaryId()
							+ ", which is not loaded (loaded: " + this.dictionaries.ids() + ")");
				}
			}
			if (header.contentSize() == ZstdFrameHeader.UNKNOWN) {
				decompressStreaming(in, out, header, dictionary, maxDecompressedSize);
			}
			else {
				decompressKnownSize(in, out, header, dictionary, maxDecompressedSize);
			}
		}
		catch (SerializationException ex) {
			out.writerIndex(outStart);
			throw ex;
		}
		catch (IndexOutOfBoundsException ex) {
			out.writerIndex(outStart);
			throw Failures.outputFull(NAME, Math.min(maxDecompressedSize, out.maxCapacity() - outStart), ex);
		}
		finally {
			Reference.reachabilityFence(this);
		}
	}

	private void decompressKnownSize(ByteBuf in, ByteBuf out, ZstdFrameHeader header,
			@Nullable ZstdDictionary dictionary, int maxDecompressedSize) {
		if (header.contentSize() > maxDecompressedSize) {
			throw Failures.declaresTooMuch(NAME, String.valueOf(header.contentSize()), maxDecompressedSize);
		}
		int size = (int) header.contentSize();
		int length = in.readableBytes();
		if (size > (length / MIN_BLOCK_SIZE + 1L) * MAX_BLOCK_CONTENT) {
			// a tiny value must not make us allocate up to the cap
			throw Failures.decompress(NAME,
					"corrupt: it declares " + size + " bytes, more than a frame of " + length + " bytes can hold");
		}
		int written;
		ZstdDecompressCtx context = this.decompressContexts.acquire();
		try (Span source = Span.readable(in); Span target = Span.writable(out, size)) {
			context.setMagicless(header.magicless());
			if (dictionary != null) {
				context.loadDict(dictionary.forDecompression());
			}
			else {
				context.loadDict((byte[]) null); // removes the dictionary of an earlier call
			}
			if (source.isArray()) {
				written = target.isArray()
						? context.decompressByteArray(target.array(), target.offset(), size, source.array(),
								source.offset(), length)
						: context.decompressByteArrayToDirectByteBuffer(target.direct(), target.offset(), size,
								source.array(), source.offset(), length);
			}
			else {
				written = target.isArray()
						? context.decompressDirectByteBufferToByteArray(target.array(), target.offset(), size,
								source.direct(), source.offset(), length)
						: context.decompressDirectByteBuffer(target.direct(), target.offset(), size, source.direct(),
								source.offset(), length);
			}
			if (written != size) {
				throw Failures.decompress(NAME,
						"corrupt: it decompressed to " + written + " bytes but its frame declares " + size);
			}
			target.commit(out, written);
		}
		catch (ZstdException ex) {
			throw Failures.decompress(NAME, "corrupt or truncated (" + ex.getMessage() + ")", ex);
		}
		finally {
			this.decompressContexts.release(context);
		}
		in.skipBytes(length);
	}

	/** A frame without a declared size: decompressed in steps, stopping at the cap. */
	private static void decompressStreaming(ByteBuf in, ByteBuf out, ZstdFrameHeader header,
			@Nullable ZstdDictionary dictionary, int maxDecompressedSize) {
		long maxWindow = Math.max(maxDecompressedSize, MAX_STREAMING_WINDOW);
		if (header.windowSize() > maxWindow) {
			throw Failures.decompress(NAME, "it declares no size and a window of " + header.windowSize()
					+ " bytes, more than the maximum of " + maxWindow + " bytes");
		}
		int windowLog = Math.max(10, 64 - Long.numberOfLeadingZeros(Math.max(1, header.windowSize() - 1)));
		long written = 0;
		InputStream frame = new ByteBufInputStream(in.duplicate());
		if (header.magicless()) {
			// the streaming decoder reads standard frames only
			frame = new SequenceInputStream(new ByteArrayInputStream(ZstdFrameHeader.MAGIC_BYTES), frame);
		}
		try (ZstdInputStreamNoFinalizer stream = new ZstdInputStreamNoFinalizer(frame)) {
			stream.setLongMax(windowLog);
			if (dictionary != null) {
				stream.setDict(dictionary.forDecompression());
			}
			while (true) {
				long allowed = (long) maxDecompressedSize + 1 - written;
				int read = out.writeBytes(stream, (int) Math.min(STREAM_STEP, allowed));
				if (read < 0) {
					break;
				}
				written += read;
				if (written > maxDecompressedSize) {
					throw Failures.inflatesTooMuch(NAME, maxDecompressedSize);
				}
			}
		}
		catch (IOException | ZstdException ex) {
			throw Failures.decompress(NAME, "corrupt or truncated (" + ex.getMessage() + ")", ex);
		}
		in.skipBytes(in.readableBytes());
	}

	private static ZstdCompressCtx newCompressContext(int level, @Nullable ZstdDictCompress dictionary) {
		ZstdCompressCtx context = new ZstdCompressCtx();
		context.setLevel(level).setMagicless(true).setChecksum(true).setContentSize(true).setDictID(true);
		if (dictionary != null) {
			context.loadDict(dictionary);
		}
		return context;
	}

	@Override
	public String toString() {
		return "ZstdCompressor[level=" + level() + ", dictionary=" + this.dictionary + ", readable="
				+ this.dictionaries.ids() + "]";
	}

}
