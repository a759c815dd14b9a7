package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.data.redis.serializer.GenericToStringSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * What one call costs the Redis server, plain keys beside the sharded template: the microseconds
 * {@code INFO commandstats} records for every command and script a call sends, summed, per call.
 * Redis counts a command run inside {@code EXEC} or a script twice, under its own name and in
 * {@code EXEC}'s or the script's time, so the sum is an upper bound; the breakdown shows each part.
 * Each store runs on a fresh server of its own holding {@code keys} 20-byte values (counters for
 * increments), for Redis 7.0 (from the PATH) and Redis 8.0, in namespaces of the default fill
 * factor ({@code -Dslipcase.fill=0.75} compares another).
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.sharded.ShardedServerTimeReport [keys]</pre>
 */
public final class ShardedServerTimeReport {

	private static final int CALLS = 2000;

	private static final int BATCH = 100;

	private ShardedServerTimeReport() {
	}

	public static void main(String[] args) {
		int keys = (args.length > 0) ? Integer.parseInt(args[0].replace("_", "")) : 10_000;
		System.out.println(markdown(measureAll(keys)));
	}

	/** Every operation, plain and sharded, on Redis 7.0 and 8.0. */
	public static List<Row> measureAll(int keys) {
		List<Row> rows = new ArrayList<>();
		rows.addAll(measure(RedisServers::start, keys));
		rows.addAll(measure(RedisServers::startRedis80, keys));
		return rows;
	}

	static List<Row> measure(Supplier<RedisServer> servers, int keys) {
		Map<Operation, Cost> plain = measureStore(servers, keys, false);
		Map<Operation, Cost> sharded = measureStore(servers, keys, true);
		List<Row> rows = new ArrayList<>();
		for (Operation operation : Operation.values()) {
			rows.add(new Row(plain.get(operation).version(), keys, operation, plain.get(operation),
					sharded.get(operation)));
		}
		return rows;
	}

	private static Map<Operation, Cost> measureStore(Supplier<RedisServer> servers, int keys, boolean sharded) {
		try (RedisServer server = servers.get()) {
			server.flushAll();
			RedisClient client = RedisClient.create(server.endpoint().uri());
			try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
					ShardedTemplates templates = ShardedTemplates.create(client)) {
				connection.setTimeout(Duration.ofMinutes(1));
				Store store = sharded ? new ShardedStore(templates) : new PlainStore(connection.sync());
				store.load(keys);
				Map<Operation, Cost> costs = new LinkedHashMap<>();
				SplittableRandom random = new SplittableRandom(11);
				for (Operation operation : Operation.values()) {
					server.command("CONFIG", "RESETSTAT");
					for (int call = 0; call < CALLS; call++) {
						operation.run(store, random, keys);
					}
					costs.put(operation, Cost.of((String) server.command("INFO", "commandstats"), server.version()));
				}
				return costs;
			}
			finally {
				client.shutdown();
			}
		}
	}

	/** The rows as a Markdown table. */
	public static String markdown(List<Row> rows) {
		StringBuilder text = new StringBuilder();
		text.append("Server time per call: `INFO commandstats` microseconds of every command and script a call ")
			.append("sends, summed, after ").append(String.format(Locale.ROOT, "%,d", CALLS))
			.append(" calls on a fresh server holding the keys (a command inside `EXEC` or a script is counted ")
			.append("twice by Redis, so sharded figures are upper bounds). Steadier than client-side times, yet a ")
			.append("row moves by up to ±40% between runs on a shared VM: compare within a run.\n\n");
		text.append("| server | keys | call | plain µs | sharded µs | sharded ÷ plain | sharded commands (µs per call) |\n");
		text.append("| --- | ---: | --- | ---: | ---: | ---: | --- |\n");
		for (Row row : rows) {
			text.append(String.format(Locale.ROOT, "| Redis %s | %,d | %s | %.2f | %.2f | %.2f× | %s |%n", row.version(),
					row.keys(), row.operation().label, row.plain().microsPerCall(), row.sharded().microsPerCall(),
					row.sharded().microsPerCall() / row.plain().microsPerCall(), row.sharded().breakdown()));
		}
		return text.toString();
	}

	/** The calls measured. */
	enum Operation {

		GET("get"), SET("set"), MULTI_GET("get 100 keys"), MULTI_SET("set 100 keys"), INCREMENT("increment");

		private final String label;

		Operation(String label) {
			this.label = label;
		}

		void run(Store store, SplittableRandom random, int keys) {
			switch (this) {
				case GET -> store.get(random.nextInt(keys));
				case SET -> store.set(random.nextInt(keys), MemoryCase.randomText(random, 20));
				case MULTI_GET -> {
					List<Integer> ids = new ArrayList<>(BATCH);
					for (int i = 0; i < BATCH; i++) {
						ids.add(random.nextInt(keys));
					}
					store.multiGet(ids);
				}
				case MULTI_SET -> {
					Map<Integer, String> values = new LinkedHashMap<>();
					for (int i = 0; i < BATCH; i++) {
						values.put(random.nextInt(keys), MemoryCase.randomText(random, 20));
					}
					store.multiSet(values);
				}
				case INCREMENT -> store.increment(random.nextInt(1000));
			}
		}

	}

	/** Microseconds per call and the commands behind them. */
	record Cost(double microsPerCall, String breakdown, String version) {

		static Cost of(String commandstats, String version) {
			Map<String, Double> perCommand = new TreeMap<>();
			double total = 0;
			for (String line : commandstats.split("\r?\n")) {
				if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_config") || line.startsWith("cmdstat_info")) {
					continue;
				}
				String name = line.substring("cmdstat_".length(), line.indexOf(':'));
				int at = line.indexOf("usec=") + "usec=".length();
				double usec = Double.parseDouble(line.substring(at, line.indexOf(',', at)));
				perCommand.put(name, usec / CALLS);
				total += usec;
			}
			StringBuilder breakdown = new StringBuilder();
			perCommand.forEach((name, micros) -> breakdown.append((breakdown.length() > 0) ? ", " : "")
				.append(name.toUpperCase(Locale.ROOT)).append(String.format(Locale.ROOT, " %.2f", micros)));
			return new Cost(total / CALLS, breakdown.toString(), version);
		}

	}

	/** One call, plain and sharded. */
	public record Row(String version, int keys, Operation operation, Cost plain, Cost sharded) {
	}

	/** Plain keys or the sharded template, by id. */
	private interface Store {

		void load(int keys);

		void get(int id);

		void set(int id, String value);

		void multiGet(List<Integer> ids);

		void multiSet(Map<Integer, String> values);

		void increment(int id);

	}

	private static final class PlainStore implements Store {

		private final RedisCommands<byte[], byte[]> redis;

		PlainStore(RedisCommands<byte[], byte[]> redis) {
			this.redis = redis;
		}

		@Override
		public void load(int keys) {
			SplittableRandom random = new SplittableRandom(42);
			Map<byte[], byte[]> batch = new LinkedHashMap<>();
			for (int i = 0; i < keys; i++) {
				batch.put(key(i), bytes(MemoryCase.randomText(random, 20)));
				if (batch.size() == 1000 || i == keys - 1) {
					this.redis.mset(batch);
					batch.clear();
				}
			}
			for (int i = 0; i < 1000; i++) {
				this.redis.set(bytes("counter:" + i), bytes(Integer.toString(i)));
			}
		}

		@Override
		public void get(int id) {
			this.redis.get(key(id));
		}

		@Override
		public void set(int id, String value) {
			this.redis.set(key(id), bytes(value));
		}

		@Override
		public void multiGet(List<Integer> ids) {
			this.redis.mget(ids.stream().map(PlainStore::key).toArray(byte[][]::new));
		}

		@Override
		public void multiSet(Map<Integer, String> values) {
			Map<byte[], byte[]> raw = new LinkedHashMap<>();
			values.forEach((id, value) -> raw.put(key(id), bytes(value)));
			this.redis.mset(raw);
		}

		@Override
		public void increment(int id) {
			this.redis.incr(bytes("counter:" + id));
		}

		private static byte[] key(int id) {
			return bytes("user:" + id);
		}

		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

	}

	private static final class ShardedStore implements Store {

		private final ShardedTemplate<String> values;

		private final ShardedTemplate<Long> counters;

		ShardedStore(ShardedTemplates templates) {
			this.values = templates.template(fill(ShardedNamespace.builder("users").alias("u").keyPrefix("user:")).build(),
					StringRedisSerializer.UTF_8);
			this.counters = templates.template(
					fill(ShardedNamespace.builder("counters").alias("c").keyPrefix("counter:")).build(),
					new GenericToStringSerializer<>(Long.class));
		}

		/** The namespace's default fill factor, or {@code -Dslipcase.fill} to compare others. */
		private static ShardedNamespace.Builder fill(ShardedNamespace.Builder builder) {
			String fill = System.getProperty("slipcase.fill");
			return (fill != null) ? builder.fillFactor(Double.parseDouble(fill)) : builder;
		}

		@Override
		public void load(int keys) {
			SplittableRandom random = new SplittableRandom(42);
			Map<String, String> batch = new LinkedHashMap<>();
			for (int i = 0; i < keys; i++) {
				batch.put("user:" + i, MemoryCase.randomText(random, 20));
				if (batch.size() == 1000 || i == keys - 1) {
					this.values.multiSet(batch);
					batch.clear();
				}
			}
			Map<String, Long> counts = new LinkedHashMap<>();
			for (int i = 0; i < 1000; i++) {
				counts.put("counter:" + i, (long) i);
			}
			this.counters.multiSet(counts);
		}

		@Override
		public void get(int id) {
			this.values.get("user:" + id);
		}

		@Override
		public void set(int id, String value) {
			this.values.set("user:" + id, value);
		}

		@Override
		public void multiGet(List<Integer> ids) {
			this.values.multiGet(ids.stream().map((id) -> "user:" + id).toList());
		}

		@Override
		public void multiSet(Map<Integer, String> values) {
			Map<String, String> named = new LinkedHashMap<>();
			values.forEach((id, value) -> named.put("user:" + id, value));
			this.values.multiSet(named);
		}

		@Override
		public void increment(int id) {
			this.counters.incrBy("counter:" + id, 1);
		}

	}

}
