package dev.slipcase.redis.serializer.compression;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.slipcase.redis.benchmark.Payload;
import dev.slipcase.redis.benchmark.Payloads;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Prints the stored size of each payload, as plain Jackson JSON, compressed by each compressor,
 * and Zstd with a trained dictionary on the small record: trained on 1000 session tokens, measured
 * on 1000 others. Sizes are of the compressor's output alone; the format header adds one or two
 * bytes.
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.serializer.compression.CompressedSizes
 * </pre>
 */
public final class CompressedSizes {

	private static final int MEASURED_FROM = 2_000_000;

	private static final int MEASURED_COUNT = 1000;

	private CompressedSizes() {
	}

	public static void main(String[] args) {
		Map<String, Compressor> compressors = new LinkedHashMap<>();
		compressors.put("lz4", Lz4Compressor.create());
		compressors.put("lz4-hc9", Lz4Compressor.highCompression(9));
		compressors.put("zstd-3", ZstdCompressor.create());
		compressors.put("zstd-19", ZstdCompressor.create(19));
		compressors.put("gzip-6", GzipCompressor.create());
		compressors.put("gzip-9", GzipCompressor.create(9));

		System.out.printf(Locale.ROOT, "%-10s %10s", "payload", "json");
		compressors.keySet().forEach((name) -> System.out.printf(Locale.ROOT, " %16s", name));
		System.out.println();
		for (Payload payload : Payload.values()) {
			byte[] json = CompressionCandidates.json(payload.value());
			System.out.printf(Locale.ROOT, "%-10s %10d", payload, json.length);
			for (Compressor compressor : compressors.values()) {
				int size = compressedSize(compressor, json);
				System.out.printf(Locale.ROOT, " %8d (%.3f)", size, (double) size / json.length);
			}
			System.out.println();
		}

		ZstdDictionary dictionary = CompressionCandidates.sessionTokenDictionary();
		System.out.printf(Locale.ROOT, "%nZstd dictionary: %d bytes, id %d, trained on session tokens %d..%d%n",
				dictionary.size(), dictionary.id(), CompressionCandidates.TRAINING_FROM,
				CompressionCandidates.TRAINING_FROM + CompressionCandidates.TRAINING_COUNT - 1);
		List<byte[]> measured = new ArrayList<>();
		measured.add(CompressionCandidates.json(Payload.SMALL.value()));
		for (int seed = MEASURED_FROM; seed < MEASURED_FROM + MEASURED_COUNT; seed++) {
			measured.add(CompressionCandidates.json(Payloads.sessionToken(seed)));
		}
		Map<String, Compressor> small = new LinkedHashMap<>();
		small.put("lz4", compressors.get("lz4"));
		small.put("zstd-3", compressors.get("zstd-3"));
		small.put("gzip-6", compressors.get("gzip-6"));
		small.put("zstd-3 + dictionary", ZstdCompressor.create().withDictionary(dictionary));
		small.put("zstd-19 + dictionary", ZstdCompressor.create(19).withDictionary(dictionary));
		System.out.printf(Locale.ROOT, "SMALL (seed 1) and %d unseen session tokens (seeds %d..%d), mean sizes:%n",
				MEASURED_COUNT, MEASURED_FROM, MEASURED_FROM + MEASURED_COUNT - 1);
		double jsonMean = measured.stream().mapToInt((bytes) -> bytes.length).average().orElseThrow();
		System.out.printf(Locale.ROOT, "  %-22s %7.1f bytes%n", "json", jsonMean);
		int smallJson = measured.get(0).length;
		for (Map.Entry<String, Compressor> entry : small.entrySet()) {
			double mean = measured.stream().mapToInt((bytes) -> compressedSize(entry.getValue(), bytes)).average()
				.orElseThrow();
			int first = compressedSize(entry.getValue(), measured.get(0));
			System.out.printf(Locale.ROOT, "  %-22s %7.1f bytes (%.3f of json); SMALL: %d of %d (%.3f)%n", entry.getKey(),
					mean, mean / jsonMean, first, smallJson, (double) first / smallJson);
		}
	}

	private static int compressedSize(Compressor compressor, byte[] bytes) {
		ByteBuf in = Unpooled.wrappedBuffer(bytes);
		ByteBuf out = Unpooled.buffer(bytes.length + 64);
		try {
			compressor.compress(in, out);
			return out.readableBytes();
		}
		finally {
			in.release();
			out.release();
		}
	}

}
