package dev.slipcase.redis.serializer.compression;

import java.util.List;
import java.util.Locale;

import org.springframework.util.Assert;

/**
 * The built-in compressors, by id and by name, each at its default settings: the lookup a format
 * header (which records a compressor's id) or a property (which names one) needs.
 * <p>
 * The ids are part of the stored format and never change: {@value Lz4Compressor#ID} is
 * {@code lz4}, {@value ZstdCompressor#ID} is {@code zstd}, {@value GzipCompressor#ID} is
 * {@code gzip}; 4 to 7 are reserved; 0 means "not compressed" and is never a compressor's id.
 * <p>
 * LZ4 and Zstd need their optional libraries ({@code at.yawk.lz4:lz4-java},
 * {@code com.github.luben:zstd-jni}) on the classpath; asking for one without its library fails
 * with a message naming the missing dependency. The default instances are created on first use
 * and shared. A compressor configured otherwise (a level, a {@link ZstdDictionary}) is created
 * with its class's factory methods instead.
 */
public final class Compressors {

	/** The names of the built-in compressors, in id order. */
	public static final List<String> NAMES = List.of(Lz4Compressor.NAME, ZstdCompressor.NAME, GzipCompressor.NAME);

	private Compressors() {
	}

	/**
	 * The built-in compressor with {@code name} ({@code "lz4"}, {@code "zstd"} or {@code "gzip"},
	 * ignoring case), at its default settings.
	 * @throws IllegalArgumentException when no built-in compressor has that name
	 * @throws IllegalStateException when its library is not on the classpath
	 */
	public static Compressor byName(String name) {
		Assert.notNull(name, "name must not be null");
		return switch (name.trim().toLowerCase(Locale.ROOT)) {
			case Lz4Compressor.NAME -> lz4();
			case ZstdCompressor.NAME -> zstd();
			case GzipCompressor.NAME -> gzip();
			default -> throw new IllegalArgumentException("Unknown compressor '" + name + "'; known: " + NAMES);
		};
	}

	/**
	 * The built-in compressor with {@code id}, at its default settings.
	 * @throws IllegalArgumentException when no built-in compressor has that id (0 means "not
	 * compressed"; 4 to 7 are reserved)
	 * @throws IllegalStateException when its library is not on the classpath
	 */
	public static Compressor byId(int id) {
		return switch (id) {
			case Lz4Compressor.ID -> lz4();
			case ZstdCompressor.ID -> zstd();
			case GzipCompressor.ID -> gzip();
			case 0 -> throw new IllegalArgumentException("Compressor id 0 means 'not compressed', not a compressor");
			default -> throw new IllegalArgumentException("Unknown compressor id " + id + "; known: "
					+ Lz4Compressor.ID + " (lz4), " + ZstdCompressor.ID + " (zstd), " + GzipCompressor.ID + " (gzip)");
		};
	}

	/** Whether the library the compressor named {@code name} needs is on the classpath. */
	public static boolean isAvailable(String name) {
		Assert.notNull(name, "name must not be null");
		return switch (name.trim().toLowerCase(Locale.ROOT)) {
			case Lz4Compressor.NAME -> isPresent("net.jpountz.lz4.LZ4Factory");
			case ZstdCompressor.NAME -> isPresent("com.github.luben.zstd.Zstd");
			case GzipCompressor.NAME -> true;
			default -> false;
		};
	}

	/** The shared default {@link Lz4Compressor}. */
	public static Compressor lz4() {
		requireLibrary(Lz4Compressor.NAME, "at.yawk.lz4:lz4-java");
		return Lz4Holder.INSTANCE;
	}

	/** The shared default {@link ZstdCompressor}: level 3, no dictionary. */
	public static Compressor zstd() {
		requireLibrary(ZstdCompressor.NAME, "com.github.luben:zstd-jni");
		return ZstdHolder.INSTANCE;
	}

	/** The shared default {@link GzipCompressor}: level 6. */
	public static Compressor gzip() {
		return GzipHolder.INSTANCE;
	}

	private static void requireLibrary(String name, String dependency) {
		if (!isAvailable(name)) {
			throw new IllegalStateException(
					"The " + name + " compressor needs " + dependency + " on the classpath; add that dependency");
		}
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, Compressors.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	private static final class Lz4Holder {

		static final Compressor INSTANCE = Lz4Compressor.create();

	}

	private static final class ZstdHolder {

		static final Compressor INSTANCE = ZstdCompressor.create();

	}

	private static final class GzipHolder {

		static final Compressor INSTANCE = GzipCompressor.create();

	}

}
