package dev.slipcase.redis.serializer.compression;

import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * One compression algorithm over Netty buffers. The format header records which compressor
 * wrote a value (by {@link #id()}), so values stay readable when an application changes its
 * compression.
 * <p>
 * Implementations are immutable and thread-safe. Buffer ownership never moves: callers own and
 * release both {@code in} and {@code out}; a compressor neither releases nor retains them, also
 * when it throws. Either buffer may be heap or direct, array-backed or not (the Lettuce codecs
 * hand over direct buffers); compressors read and write them in place where their library allows.
 * When a method throws, {@code in}'s reader index and {@code out}'s writer index are left where
 * they were (bytes beyond the writer index may have been overwritten).
 * <p>
 * Built-in implementations: {@link Lz4Compressor}, {@link ZstdCompressor} (with
 * {@link ZstdDictionary trained dictionaries}) and {@link GzipCompressor}; {@link Compressors}
 * finds them by id or name.
 */
public interface Compressor {

	/**
	 * The compressor's id in the format header, stable forever once released: values in Redis
	 * carry it. Between 1 and 7; 0 means "not compressed".
	 */
	int id();

	/** The algorithm's name for messages, properties and metrics: {@code "lz4"}, {@code "zstd"}, {@code "gzip"}. */
	String name();

	/**
	 * Compresses all readable bytes of {@code in} (advancing its reader index) and writes the
	 * result at {@code out}'s writer index, growing {@code out} as needed. The output is
	 * self-contained: {@link #decompress} needs nothing but it (and, for a dictionary, the same
	 * dictionary loaded).
	 * <p>
	 * The caller owns {@code in} and {@code out} and releases them; this method never releases or
	 * retains either, also when it throws (then {@code out}'s writer index is back where it was).
	 * @throws SerializationException when compression fails
	 */
	void compress(ByteBuf in, ByteBuf out);

	/**
	 * Decompresses all readable bytes of {@code in} (advancing its reader index) into
	 * {@code out}, at its writer index. A value that claims, or turns out, to decompress to more
	 * than {@code maxDecompressedSize} bytes is refused before that memory is allocated (a value
	 * that declares no size is decompressed in bounded steps that stop at the cap, so at most
	 * about the cap is ever allocated for it). The whole of {@code in} must be one value:
	 * trailing bytes are an error.
	 * <p>
	 * The caller owns {@code in} and {@code out} and releases them; this method never releases or
	 * retains either, also when it throws (then {@code out}'s writer index is back where it was).
	 * @param maxDecompressedSize the largest decompressed size accepted, in bytes; not negative
	 * @throws IllegalArgumentException when {@code maxDecompressedSize} is negative
	 * @throws SerializationException when the input is corrupt or truncated, exceeds the cap, or
	 * needs a dictionary that is not loaded, saying which compressor and what was wrong
	 */
	void decompress(ByteBuf in, ByteBuf out, int maxDecompressedSize);

}
