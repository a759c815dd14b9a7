package dev.slipcase.redis.serializer.compression;

import java.util.List;
import java.util.function.Supplier;

/** The compressors, in the configurations the tests run every behaviour against. */
final class Candidates {

	private static final ZstdDictionary DICTIONARY = ZstdDictionary.train(Samples.jsonRecords(0, 1000), 4096);

	private Candidates() {
	}

	static List<Candidate> all() {
		return List.of(new Candidate("lz4", Lz4Compressor::create), new Candidate("lz4-hc9", () -> Lz4Compressor.highCompression(9)),
				new Candidate("zstd", ZstdCompressor::create), new Candidate("zstd-1", () -> ZstdCompressor.create(-1)),
				new Candidate("zstd-dictionary", () -> ZstdCompressor.create().withDictionary(DICTIONARY)),
				new Candidate("gzip", GzipCompressor::create), new Candidate("gzip-1", () -> GzipCompressor.create(1)));
	}

	/** A shared dictionary trained from {@link Samples#jsonRecords} 0 to 999. */
	static ZstdDictionary dictionary() {
		return DICTIONARY;
	}

	record Candidate(String label, Supplier<Compressor> factory) {

		@Override
		public String toString() {
			return this.label;
		}

	}

}
