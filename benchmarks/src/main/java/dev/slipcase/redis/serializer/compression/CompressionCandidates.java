package dev.slipcase.redis.serializer.compression;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.slipcase.redis.benchmark.Payloads;
import tools.jackson.databind.json.JsonMapper;

/**
 * The compressors the compression benchmarks compare, by the name used in {@code @Param}, and the
 * plain-Jackson JSON the payloads are compressed from.
 */
final class CompressionCandidates {

	/** Session tokens from these seeds train the dictionary; none is ever measured. */
	static final int TRAINING_FROM = 1_000_000;

	static final int TRAINING_COUNT = 1000;

	/** The id of the dictionary: a small one costs 1 byte per value. */
	static final long DICTIONARY_ID = 1;

	/** The dictionary size for records of about 100 bytes. */
	static final int DICTIONARY_SIZE = 2048;

	static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Map<String, Supplier<Compressor>> CANDIDATES = new TreeMap<>();

	static {
		CANDIDATES.put("lz4", Lz4Compressor::create);
		CANDIDATES.put("zstd", ZstdCompressor::create);
		CANDIDATES.put("zstd-dictionary", () -> ZstdCompressor.create().withDictionary(sessionTokenDictionary()));
		CANDIDATES.put("gzip", GzipCompressor::create);
	}

	private CompressionCandidates() {
	}

	static Compressor create(String name) {
		Supplier<Compressor> factory = CANDIDATES.get(name);
		if (factory == null) {
			throw new IllegalArgumentException("Unknown compressor '" + name + "'; known: " + CANDIDATES.keySet());
		}
		return factory.get();
	}

	/** A dictionary trained on session tokens as JSON, from seeds no payload uses. */
	static ZstdDictionary sessionTokenDictionary() {
		List<byte[]> samples = new ArrayList<>(TRAINING_COUNT);
		for (int seed = TRAINING_FROM; seed < TRAINING_FROM + TRAINING_COUNT; seed++) {
			samples.add(json(Payloads.sessionToken(seed)));
		}
		return ZstdDictionary.train(samples, DICTIONARY_SIZE, DICTIONARY_ID);
	}

	static byte[] json(Object value) {
		return MAPPER.writeValueAsBytes(value);
	}

}
