package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.compression.ZstdCompressor;
import dev.slipcase.redis.serializer.compression.ZstdDictionary;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * Measures what N small values cost in Redis stored as plain {@code SET} keys and through the
 * sharded template: {@code INFO memory} {@code used_memory} after minus before, each run on a fresh
 * server of its own ({@link RedisServers#start()}, so {@code redis-server} on the PATH or
 * {@code SLIPCASE_REDIS_URL}), and sharded with Zstd and a trained dictionary. Prints a Markdown
 * table; {@link #measureAll}, {@link #markdown} and {@link #chart} give the benchmark suite the same.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.sharded.ShardedMemoryReport [keys]</pre>
 * {@code keys} defaults to 100,000; the full run uses 1,000,000. Namespaces take the default fill
 * factor ({@code -Dslipcase.fill=0.125} compares another).
 */
public final class ShardedMemoryReport {

	private static final int BATCH = 1000;

	private ShardedMemoryReport() {
	}

	public static void main(String[] args) {
		int keys = (args.length > 0) ? Integer.parseInt(args[0].replace("_", "")) : 100_000;
		System.out.println(markdown(measureAll(keys)));
	}

	/** Measures every {@link MemoryCase} stored plainly, sharded, and sharded with compression. */
	public static List<Row> measureAll(int keys) {
		List<Row> rows = new ArrayList<>();
		for (MemoryCase memoryCase : MemoryCase.values()) {
			Result plain = measure(memoryCase, keys, Storage.PLAIN);
			Result sharded = measure(memoryCase, keys, Storage.SHARDED);
			Result compressed = memoryCase.compressible() ? measure(memoryCase, keys, Storage.SHARDED_ZSTD) : null;
			rows.add(new Row(memoryCase.description(), keys, plain.bytesPerKey(), sharded.bytesPerKey(),
					(compressed != null) ? compressed.bytesPerKey() : Double.NaN, sharded.note(), plain.version()));
		}
		return rows;
	}

	/** The rows as a Markdown table with the server's version. */
	public static String markdown(List<Row> rows) {
		StringBuilder text = new StringBuilder();
		text.append("Redis ").append(rows.isEmpty() ? "?" : rows.get(0).redisVersion())
			.append(", bytes per key from `INFO memory` `used_memory` after minus before, a fresh server per case; ")
			.append("\"sharded + zstd\" stores values through Slipcase's serializer with Zstd and a dictionary trained ")
			.append("on other values of the same kind (counters stay decimal so `HINCRBY` works).\n\n");
		text.append("| values | keys | plain SET B/key | sharded B/key | plain ÷ sharded | sharded + zstd B/key | plain ÷ sharded + zstd | buckets |\n");
		text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Row row : rows) {
			text.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.2f× | %s | %s | %s |%n", row.values(),
					row.keys(), row.plainBytesPerKey(), row.shardedBytesPerKey(),
					row.plainBytesPerKey() / row.shardedBytesPerKey(),
					Double.isNaN(row.compressedBytesPerKey()) ? "n/a"
							: String.format(Locale.ROOT, "%.1f", row.compressedBytesPerKey()),
					Double.isNaN(row.compressedBytesPerKey()) ? "n/a"
							: String.format(Locale.ROOT, "%.2f×", row.plainBytesPerKey() / row.compressedBytesPerKey()),
					row.note()));
		}
		return text.toString();
	}

	/** Bytes per key by kind of value, then by way of storing it, for a bar chart. */
	public static Map<String, Map<String, Double>> chart(List<Row> rows) {
		Map<String, Map<String, Double>> values = new LinkedHashMap<>();
		for (Row row : rows) {
			Map<String, Double> bars = new LinkedHashMap<>();
			bars.put("plain SET", row.plainBytesPerKey());
			bars.put("sharded", row.shardedBytesPerKey());
			if (!Double.isNaN(row.compressedBytesPerKey())) {
				bars.put("sharded + zstd", row.compressedBytesPerKey());
			}
			values.put(row.values(), bars);
		}
		return values;
	}

	static Result measure(MemoryCase memoryCase, int keys, Storage storage) {
		try (RedisServer server = RedisServers.start()) {
			server.flushAll();
			RedisClient client = RedisClient.create(server.endpoint().uri());
			try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
				connection.setTimeout(Duration.ofMinutes(1));
				long before = usedMemory(server);
				String note = "";
				SplittableRandom random = new SplittableRandom(42);
				if (storage != Storage.PLAIN) {
					try (ShardedTemplates templates = ShardedTemplates.create(connection)) {
						ShardedTemplate<String> template = templates.template(
								ShardedServerTimeReport.fill(ShardedNamespace
									.builder(memoryCase.name().toLowerCase(Locale.ROOT).replace('_', '-'))
									.alias(memoryCase.keyPrefix().substring(0, 1))
									.keyPrefix(memoryCase.keyPrefix()))
									.build(),
								(storage == Storage.SHARDED_ZSTD) ? compressing(memoryCase) : StringRedisSerializer.UTF_8);
						Map<String, String> batch = new LinkedHashMap<>();
						for (int i = 0; i < keys; i++) {
							batch.put(memoryCase.keyPrefix() + i, memoryCase.value(random, i));
							if (batch.size() == BATCH) {
								template.multiSet(batch);
								batch.clear();
							}
						}
						if (!batch.isEmpty()) {
							template.multiSet(batch);
						}
						BucketMemoryReport report = template.memoryReport(Integer.MAX_VALUE);
						note = String.format(Locale.ROOT, "%,d buckets of %d, %d flipped, %.1f B/field by MEMORY USAGE",
								report.sampledBuckets(), template.layout().bucketSize(), report.flippedBuckets(),
								report.bytesPerKey());
					}
				}
				else {
					RedisAsyncCommands<byte[], byte[]> async = connection.async();
					List<RedisFuture<String>> pending = new ArrayList<>(BATCH);
					for (int i = 0; i < keys; i++) {
						pending.add(async.set(bytes(memoryCase.keyPrefix() + i), bytes(memoryCase.value(random, i))));
						if (pending.size() == BATCH) {
							awaitOk(pending);
						}
					}
					awaitOk(pending);
				}
				long after = usedMemory(server);
				return new Result((double) (after - before) / keys, note, server.version());
			}
			finally {
				client.shutdown();
			}
		}
	}

	private static void awaitOk(List<RedisFuture<String>> pending) {
		for (RedisFuture<String> reply : pending) {
			String ok = reply.toCompletableFuture().join();
			if (!"OK".equals(ok)) {
				throw new IllegalStateException("SET answered " + ok);
			}
		}
		pending.clear();
	}

	private static long usedMemory(RedisServer server) {
		return Long.parseLong(server.info("memory", "used_memory"));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Slipcase's string serializer with Zstd and a dictionary trained on 2,000 other values of the
	 * case (a different random seed from the measured ones), for values of 16 bytes and more.
	 */
	private static RedisSerializer<String> compressing(MemoryCase memoryCase) {
		SplittableRandom random = new SplittableRandom(1_000_003);
		List<byte[]> samples = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			samples.add(bytes(memoryCase.value(random, i)));
		}
		ZstdDictionary dictionary = ZstdDictionary.train(samples, 2048, 1);
		return SlipcaseSerializers.compressed(Utf8StringFormat.INSTANCE, ZstdCompressor.create().withDictionary(dictionary),
				16);
	}

	record Result(double bytesPerKey, String note, String version) {
	}

	/** How the values are stored. */
	enum Storage {

		/** One top-level key per value. */
		PLAIN,

		/** Fields of the sharded template's buckets. */
		SHARDED,

		/** Fields of the sharded template's buckets, through Zstd with a trained dictionary. */
		SHARDED_ZSTD

	}

	/**
	 * One kind of value measured three ways.
	 * @param compressedBytesPerKey {@code NaN} where compression does not apply
	 */
	public record Row(String values, int keys, double plainBytesPerKey, double shardedBytesPerKey,
			double compressedBytesPerKey, String note, String redisVersion) {
	}

}
