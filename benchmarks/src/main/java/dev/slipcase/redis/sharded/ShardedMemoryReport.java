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

import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * Measures what N small values cost in Redis stored as plain {@code SET} keys and through the
 * sharded template: {@code INFO memory} {@code used_memory} after minus before, each run on a fresh
 * server of its own ({@link RedisServers#start()}, so {@code redis-server} on the PATH or
 * {@code SLIPCASE_REDIS_URL}). Prints a Markdown table.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.sharded.ShardedMemoryReport [keys]</pre>
 * {@code keys} defaults to 100,000; the full run uses 1,000,000.
 */
public final class ShardedMemoryReport {

	private static final int BATCH = 1000;

	private ShardedMemoryReport() {
	}

	public static void main(String[] args) {
		int keys = (args.length > 0) ? Integer.parseInt(args[0].replace("_", "")) : 100_000;
		List<String> rows = new ArrayList<>();
		String version = null;
		for (MemoryCase memoryCase : MemoryCase.values()) {
			Result plain = measure(memoryCase, keys, false);
			Result sharded = measure(memoryCase, keys, true);
			version = plain.version();
			rows.add(String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.2f× | %s |", memoryCase.description(), keys,
					plain.bytesPerKey(), sharded.bytesPerKey(), plain.bytesPerKey() / sharded.bytesPerKey(),
					sharded.note()));
		}
		System.out.println("Redis " + version + ", " + System.getProperty("java.vm.name") + " "
				+ System.getProperty("java.version") + ", bytes per key from INFO memory used_memory");
		System.out.println();
		System.out.println("| values | keys | plain SET B/key | sharded B/key | plain ÷ sharded | buckets |");
		System.out.println("| --- | ---: | ---: | ---: | ---: | --- |");
		rows.forEach(System.out::println);
	}

	static Result measure(MemoryCase memoryCase, int keys, boolean sharded) {
		try (RedisServer server = RedisServers.start()) {
			server.flushAll();
			RedisClient client = RedisClient.create(server.endpoint().uri());
			try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
				connection.setTimeout(Duration.ofMinutes(1));
				long before = usedMemory(server);
				String note = "";
				SplittableRandom random = new SplittableRandom(42);
				if (sharded) {
					try (ShardedTemplates templates = ShardedTemplates.create(connection)) {
						ShardedTemplate<String> template = templates.template(
								ShardedNamespace.builder(memoryCase.name().toLowerCase(Locale.ROOT).replace('_', '-'))
									.alias(memoryCase.keyPrefix().substring(0, 1))
									.keyPrefix(memoryCase.keyPrefix())
									.build(),
								StringRedisSerializer.UTF_8);
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

	record Result(double bytesPerKey, String note, String version) {
	}

}
