package dev.slipcase.redis.serializer.compression;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A Zstandard dictionary: a few kilobytes of content and statistics common to many small values,
 * which lets values of about 100 bytes compress to a fraction of their size where plain Zstd
 * barely helps. Train one from sample values with {@link #train}, save it with {@link #writeTo},
 * ship it with the application and load it with {@link #fromClasspath} or {@link #fromFile}.
 * <p>
 * Every dictionary has an {@link #id()}, written into each Zstd frame compressed with it; on
 * decompression the id selects the dictionary from the {@link ZstdDictionaries} a
 * {@link ZstdCompressor} was given. Values written with an older dictionary therefore stay
 * readable for as long as that dictionary is still loaded.
 * <p>
 * Immutable and thread-safe. The native forms of the dictionary (one for decompression, one per
 * compression level) are created once and shared; zstd-jni frees them when the dictionary
 * becomes unreachable.
 */
public final class ZstdDictionary {

	/** The magic number that starts a dictionary in Zstandard's format (RFC 8878, section 5). */
	private static final int MAGIC = 0xEC30A437;

	/** The largest dictionary accepted: far above any useful size, low enough to refuse a wrong file. */
	private static final int MAX_SIZE = 16 * 1024 * 1024;

	private final byte[] bytes;

	private final long id;

	private final ZstdDictDecompress decompression;

	private final ConcurrentMap<Integer, ZstdDictCompress> compression = new ConcurrentHashMap<>();

	private ZstdDictionary(byte[] bytes, String source) {
		if (bytes.length < 8 || ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0) != MAGIC) {
			throw new IllegalArgumentException(source + " is not a zstd dictionary (no dictionary magic number); "
					+ "raw-content dictionaries have no id and are not supported");
		}
		if (bytes.length > MAX_SIZE) {
			throw new IllegalArgumentException(
					source + " is " + bytes.length + " bytes, more than the largest dictionary accepted (" + MAX_SIZE + ")");
		}
		long id = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(4) & 0xFFFFFFFFL;
		if (id == 0) {
			throw new IllegalArgumentException(source + " has dictionary id 0, which frames cannot name");
		}
		this.bytes = bytes;
		this.id = id;
		try {
			this.decompression = new ZstdDictDecompress(bytes);
			// validates the entropy tables now rather than on the first value
			this.compression.put(ZstdCompressor.DEFAULT_LEVEL, new ZstdDictCompress(bytes, ZstdCompressor.DEFAULT_LEVEL));
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(source + " is not a valid zstd dictionary: " + ex.getMessage(), ex);
		}
	}

	/**
	 * A dictionary from its bytes in Zstandard's dictionary format (as written by
	 * {@link #writeTo} or {@code zstd --train}). The array is copied.
	 * @throws IllegalArgumentException when the bytes are not such a dictionary
	 */
	public static ZstdDictionary of(byte[] bytes) {
		Assert.notNull(bytes, "bytes must not be null");
		return new ZstdDictionary(bytes.clone(), "the given bytes");
	}

	/**
	 * Loads a dictionary from a classpath resource, such as {@code "slipcase/session.zdict"},
	 * with this library's class loader.
	 * @throws IllegalArgumentException when there is no such resource or it is not a dictionary
	 */
	public static ZstdDictionary fromClasspath(String resource) {
		return fromClasspath(resource, ZstdDictionary.class.getClassLoader());
	}

	/**
	 * Loads a dictionary from a classpath resource of {@code classLoader}.
	 * @throws IllegalArgumentException when there is no such resource or it is not a dictionary
	 */
	public static ZstdDictionary fromClasspath(String resource, ClassLoader classLoader) {
		Assert.notNull(resource, "resource must not be null");
		Assert.notNull(classLoader, "classLoader must not be null");
		String name = resource.startsWith("/") ? resource.substring(1) : resource;
		try (InputStream stream = classLoader.getResourceAsStream(name)) {
			if (stream == null) {
				throw new IllegalArgumentException("No zstd dictionary on the classpath at '" + resource + "'");
			}
			return new ZstdDictionary(readAtMost(stream, "classpath resource '" + resource + "'"),
					"classpath resource '" + resource + "'");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read zstd dictionary from classpath resource '" + resource + "'", ex);
		}
	}

	/**
	 * Loads a dictionary from a file.
	 * @throws IllegalArgumentException when the file is not a dictionary
	 * @throws UncheckedIOException when the file cannot be read
	 */
	public static ZstdDictionary fromFile(Path file) {
		Assert.notNull(file, "file must not be null");
		try (InputStream stream = Files.newInputStream(file)) {
			return new ZstdDictionary(readAtMost(stream, "file " + file), "file " + file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read zstd dictionary from file " + file, ex);
		}
	}

	/**
	 * Trains a dictionary from sample values with Zstandard's trainer, with the id the trainer
	 * derives from its content (between 32768 and 2<sup>31</sup>, so 4 bytes in every frame).
	 * Prefer {@link #train(Collection, int, long)} with a small id of your own.
	 * @param samples the sample values, never {@code null} or empty
	 * @param maxSize the largest size of the dictionary, in bytes, at least 256
	 * @throws IllegalArgumentException when training fails, typically because there are too few
	 * samples for {@code maxSize}
	 */
	public static ZstdDictionary train(Collection<byte[]> samples, int maxSize) {
		return new ZstdDictionary(trainBytes(samples, maxSize), "the trained dictionary");
	}

	/**
	 * Trains a dictionary from sample values with Zstandard's trainer, and gives it {@code id}.
	 * The samples should be real values, as stored (for example serialized JSON), and many: a
	 * few hundred at least, totalling about 100 times {@code maxSize}. For values of about 100
	 * bytes a dictionary of 1 to 4 KB is typical.
	 * <p>
	 * Every frame compressed with the dictionary carries its id: 1 byte for ids 1 to 255, 2 bytes
	 * up to 65535, 4 bytes above. Number your dictionaries 1, 2, 3... and never reuse an id for
	 * different content: values written with a dictionary can only be read with it.
	 * @param samples the sample values, never {@code null} or empty
	 * @param maxSize the largest size of the dictionary, in bytes, at least 256
	 * @param id the dictionary's id, from 1 to 2<sup>31</sup> - 1
	 * @throws IllegalArgumentException when training fails, typically because there are too few
	 * samples for {@code maxSize}, or the id is out of range
	 */
	public static ZstdDictionary train(Collection<byte[]> samples, int maxSize, long id) {
		if (id < 1 || id > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("id must be between 1 and " + Integer.MAX_VALUE + ", was " + id);
		}
		byte[] bytes = trainBytes(samples, maxSize);
		// the id is the 4 bytes after the magic number, a label the tables and content do not depend on
		ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(4, (int) id);
		return new ZstdDictionary(bytes, "the trained dictionary");
	}

	private static byte[] trainBytes(Collection<byte[]> samples, int maxSize) {
		Assert.notNull(samples, "samples must not be null");
		if (samples.isEmpty()) {
			throw new IllegalArgumentException("samples must not be empty");
		}
		if (maxSize < 256 || maxSize > MAX_SIZE) {
			throw new IllegalArgumentException("maxSize must be between 256 and " + MAX_SIZE + ", was " + maxSize);
		}
		byte[][] sampleArray = samples.toArray(new byte[0][]);
		byte[] buffer = new byte[maxSize];
		long size;
		try {
			size = Zstd.trainFromBuffer(sampleArray, buffer, false, ZstdCompressor.DEFAULT_LEVEL);
		}
		catch (ZstdException ex) {
			throw trainingFailed(maxSize, sampleArray.length, ex.getMessage(), ex);
		}
		if (Zstd.isError(size)) {
			throw trainingFailed(maxSize, sampleArray.length, Zstd.getErrorName(size), null);
		}
		return Arrays.copyOf(buffer, (int) size);
	}

	/** The dictionary's id, which every frame compressed with it carries. Never {@code 0}. */
	public long id() {
		return this.id;
	}

	/** The dictionary's size in bytes. */
	public int size() {
		return this.bytes.length;
	}

	/** A copy of the dictionary's bytes, in Zstandard's dictionary format. */
	public byte[] toByteArray() {
		return this.bytes.clone();
	}

	/**
	 * Writes the dictionary to {@code file} (replacing it), for {@link #fromFile} or to put on the
	 * classpath for {@link #fromClasspath}.
	 */
	public void writeTo(Path file) throws IOException {
		Assert.notNull(file, "file must not be null");
		Files.write(file, this.bytes);
	}

	/** The shared native form for decompression. */
	ZstdDictDecompress forDecompression() {
		return this.decompression;
	}

	/** The shared native form for compression at {@code level}, created on first use. */
	ZstdDictCompress forCompression(int level) {
		return this.compression.computeIfAbsent(level, (key) -> new ZstdDictCompress(this.bytes, key));
	}

	/** Two dictionaries are equal when their bytes are. */
	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || ((other instanceof ZstdDictionary that) && Arrays.equals(this.bytes, that.bytes));
	}

	@Override
	public int hashCode() {
		return Long.hashCode(this.id);
	}

	@Override
	public String toString() {
		return "ZstdDictionary[id=" + this.id + ", size=" + this.bytes.length + "]";
	}

	private static IllegalArgumentException trainingFailed(int maxSize, int samples, @Nullable String reason,
			@Nullable Throwable cause) {
		return new IllegalArgumentException("Cannot train a zstd dictionary of at most " + maxSize + " bytes from "
				+ samples + " samples: " + reason + " (usually too few or too uniform samples for the size)", cause);
	}

	private static byte[] readAtMost(InputStream stream, String source) throws IOException {
		byte[] bytes = stream.readNBytes(MAX_SIZE + 1);
		if (bytes.length > MAX_SIZE) {
			throw new IllegalArgumentException(
					source + " is larger than the largest dictionary accepted (" + MAX_SIZE + " bytes)");
		}
		return bytes;
	}

}
