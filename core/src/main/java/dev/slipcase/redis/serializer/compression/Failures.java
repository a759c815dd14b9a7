package dev.slipcase.redis.serializer.compression;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * The exceptions compressors throw, worded alike: which compressor, which direction and what was
 * wrong, so that a message in a log is enough to tell a corrupt value from a missing dictionary
 * or an oversized one.
 */
final class Failures {

	private Failures() {
	}

	static SerializationException compress(String compressor, String what, @Nullable Throwable cause) {
		return new SerializationException("Cannot " + compressor + "-compress value: " + what, cause);
	}

	static SerializationException decompress(String compressor, String what) {
		return new SerializationException("Cannot " + compressor + "-decompress value: " + what);
	}

	static SerializationException decompress(String compressor, String what, @Nullable Throwable cause) {
		return new SerializationException("Cannot " + compressor + "-decompress value: " + what, cause);
	}

	/** A value whose header claims more than the cap, refused before anything is allocated. */
	static SerializationException declaresTooMuch(String compressor, String claim, int maxDecompressedSize) {
		return decompress(compressor, "it declares " + claim + " bytes, more than the maximum decompressed size of "
				+ cap(maxDecompressedSize));
	}

	/** A value that turned out larger than the cap while decompressing in bounded steps. */
	static SerializationException inflatesTooMuch(String compressor, int maxDecompressedSize) {
		return decompress(compressor, "it inflates to more than the maximum decompressed size of "
				+ cap(maxDecompressedSize));
	}

	/** A value that filled the output buffer, whose capacity is the cap, before it ended. */
	static SerializationException outputFull(String compressor, int room, Throwable cause) {
		return decompress(compressor, "it inflates to more than the maximum decompressed size of " + cap(room),
				cause);
	}

	private static String cap(int bytes) {
		return (bytes < 1024) ? bytes + " bytes" : bytes + " bytes (" + size(bytes) + ")";
	}

	/** {@code bytes} as a person reads a size: "32 MiB", "1.5 KiB", "17 bytes". */
	static String size(long bytes) {
		if (bytes < 1024) {
			return bytes + " bytes";
		}
		String[] units = { "KiB", "MiB", "GiB" };
		double value = bytes;
		int unit = -1;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		return ((value == Math.rint(value)) ? String.valueOf((long) value)
				: String.format(java.util.Locale.ROOT, "%.1f", value)) + " " + units[unit];
	}

	static void checkMaxDecompressedSize(int maxDecompressedSize) {
		if (maxDecompressedSize < 0) {
			throw new IllegalArgumentException("maxDecompressedSize must not be negative, was " + maxDecompressedSize);
		}
	}

}
