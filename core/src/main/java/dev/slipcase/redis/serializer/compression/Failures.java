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

	static SerializationException tooLarge(String compressor, String size, int maxDecompressedSize) {
		return decompress(compressor, "it " + size + " bytes, more than the maximum decompressed size of "
				+ maxDecompressedSize + " bytes");
	}

	static void checkMaxDecompressedSize(int maxDecompressedSize) {
		if (maxDecompressedSize < 0) {
			throw new IllegalArgumentException("maxDecompressedSize must not be negative, was " + maxDecompressedSize);
		}
	}

}
