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
 * {@code EXEC}'s or the script's time, so the sum is an upper bound; the single-counted figure
 * takes {@code MULTI}, {@code EXEC} and the scripts alone where a call sends any; the breakdown
 * shows each part. Each store runs on a fresh server of its own holding {@code keys} 20-byte values
 * under numeric ids and as many under string ids (and counters of both), for Redis 7.0 (from the
 * PATH), Redis 8.0 and Valkey 9.1, in namespaces of the default fill factor
 * ({@code -Dslipcase.fill=0.75} compares another).
 * Plain and sharded servers run side by side, taking turns in {@link #ROUNDS} rounds.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.sharded.ShardedServerTimeReport [keys [calls]]</pre>
 */
public final class ShardedServerTimeReport {

	/** Calls per operation and store that a report counts. */
	public static final int CALLS = 10_000;

	/** The rounds a report's calls are split into, each counted on its own. */
	static final int ROUNDS = 5;

	private static final int BATCH = 100;

	private ShardedServerTimeReport() {
	}

	public static void main(String[] args) {
		int keys = (args.length > 0) ? Integer.parseInt(args[0].replace("_", "")) : 10_000;
		int calls = (args.length > 1) ? Integer.parseInt(args[1].replace("_", "")) : CALLS;
		System.out.println(markdown(measureAll(keys, calls)));
	}

	/** Every operation, plain and sharded, on Redis 7.0 and 8.0 and Valkey 9.1. */
	public static List<Row> measureAll(int keys, int calls) {
		List<Row> rows = new ArrayList<>();
		rows.addAll(measure(RedisServers::start, keys, calls));
		rows.addAll(measure(RedisServers::startRedis80, keys, calls));
		rows.addAll(measure(RedisServers::startValkey91, keys, calls));
		return rows;
	}

	/**
	 * Every operation on two fresh servers of one kind, plain keys on one and the sharded template on
	 * the other, both loaded before either is measured. Each operation runs {@link #ROUNDS} rounds;
	 * a round sends {@code calls / ROUNDS} calls to one server and then the same calls, with the same
	 * ids and values, to the other, in turn first, so a machine slowing down for a while slows both
	 * alike, and the rounds' ratios show how far one count can be trusted. Calls are not interleaved
	 * one by one: a server then works with caches the other just filled, which slows plain keys (a
	 * large keyspace, counters that would stay cached) far more than buckets and measures a busier
	 * machine than a server alone.
	 */
	static List<Row> measure(Supplier<RedisServer> servers, int keys, int calls) {
		int perRound = Math.max(1, calls / ROUNDS);
		try (RedisServer plainServer = servers.get(); RedisServer shardedServer = servers.get()) {
			plainServer.flushAll();
			shardedServer.flushAll();
			RedisClient plainClient = RedisClient.create(plainServer.endpoint().uri());
			RedisClient shardedClient = RedisClient.create(shardedServer.endpoint().uri());
			try (StatefulRedisConnection<byte[], byte[]> connection = plainClient.connect(ByteArrayCodec.INSTANCE);
					ShardedTemplates templates = ShardedTemplates.create(shardedClient)) {
				connection.setTimeout(Duration.ofMinutes(1));
				Store plain = new PlainStore(connection.sync());
				Store sharded = new ShardedStore(templates, keys);
				plain.load(keys);
				sharded.load(keys);
				String version = engine(plainServer);
				List<Row> rows = new ArrayList<>();
				for (Operation operation : Operation.values()) {
					List<Cost> plainRounds = new ArrayList<>(ROUNDS);
					List<Cost> shardedRounds = new ArrayList<>(ROUNDS);
					for (int round = 0; round < ROUNDS; round++) {
						// plain first in even rounds, sharded first in odd ones: a drift of the machine's speed
						// reaches both alike
						boolean plainFirst = round % 2 == 0;
						Cost first = (plainFirst) ? block(plainServer, plain, operation, round, perRound, keys, version)
								: block(shardedServer, sharded, operation, round, perRound, keys, version);
						Cost second = (plainFirst) ? block(shardedServer, sharded, operation, round, perRound, keys, version)
								: block(plainServer, plain, operation, round, perRound, keys, version);
						plainRounds.add(plainFirst ? first : second);
						shardedRounds.add(plainFirst ? second : first);
					}
					rows.add(Row.of(version, keys, perRound * ROUNDS, operation, plainRounds, shardedRounds));
				}
				return rows;
			}
			finally {
				plainClient.shutdown();
				shardedClient.shutdown();
			}
		}
	}

	/**
	 * The cost of {@code calls} calls of {@code operation} on {@code store}, alone on its server, with
	 * the ids and values of round {@code round}: each store gets the same ones.
	 */
	private static Cost block(RedisServer server, Store store, Operation operation, int round, int calls, int keys,
			String version) {
		server.command("CONFIG", "RESETSTAT");
		double cpuBefore = cpuMicros(server);
		SplittableRandom random = new SplittableRandom(11 + round);
		for (int call = 0; call < calls; call++) {
			operation.run(store, random, keys);
		}
		double cpu = cpuMicros(server) - cpuBefore;
		return Cost.of((String) server.command("INFO", "commandstats"), cpu, version, calls);
	}

	/**
	 * The CPU time the server's process has used, in microseconds ({@code INFO cpu}'s
	 * {@code used_cpu_sys} and {@code used_cpu_user}): unlike {@code INFO commandstats}, which times
	 * only each command's own work, it holds reading and parsing the requests and writing the
	 * replies too.
	 */
	static double cpuMicros(RedisServer server) {
		double seconds = 0;
		for (String line : ((String) server.command("INFO", "cpu")).split("\r?\n")) {
			if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
				seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		return seconds * 1_000_000;
	}

	/** The namespace's default fill factor, or {@code -Dslipcase.fill} to compare others. */
	static ShardedNamespace.Builder fill(ShardedNamespace.Builder builder) {
		String fill = System.getProperty("slipcase.fill");
		return (fill != null) ? builder.fillFactor(Double.parseDouble(fill)) : builder;
	}

	/** The server's name and version: {@code Redis 7.0.15}, {@code Valkey 9.1.0}. */
	static String engine(RedisServer server) {
		String info = (String) server.command("INFO", "server");
		for (String line : info.split("\r?\n")) {
			if (line.startsWith("valkey_version:")) {
				return "Valkey " + line.substring("valkey_version:".length()).trim();
			}
		}
		return "Redis " + server.version();
	}

	/** The rows as a Markdown table. */
	public static String markdown(List<Row> rows) {
		StringBuilder text = new StringBuilder();
		text.append("Server time per call: `INFO commandstats` microseconds of every command and script a call ")
			.append("sends, summed, after ")
			.append(String.format(Locale.ROOT, "%,d", rows.isEmpty() ? CALLS : rows.get(0).calls()))
			.append(" calls on a fresh server holding the keys, in ").append(ROUNDS)
			.append(" rounds, each sending its calls to a server of plain keys and then the same calls to a sharded ")
			.append("one beside it, or the other way round. Redis counts a command inside `EXEC` or a script ")
			.append("twice, under its own name and in `EXEC`'s or the script's time, so the sum is an upper bound; ")
			.append("\"single\" takes `MULTI`, `EXEC` and the scripts alone where a call sends any. A string id ")
			.append("(`u123`) goes to a hashed bucket, a numeric one (`123`) to a numeric bucket; plain keys are the same ")
			.append("names. \"Rounds\" gives the lowest and highest single ÷ plain of the rounds: on a shared VM a ")
			.append("call of a few microseconds moves most, so compare within a run. `INFO commandstats` times each ")
			.append("command's own work only; \"CPU\" is the server process's CPU time per call (`INFO cpu`), which ")
			.append("also holds reading and parsing the requests and writing the replies.\n\n");
		text.append("| server | keys | call | plain µs | sharded µs | sharded ÷ plain | single ÷ plain | rounds | ")
			.append("plain CPU µs | sharded CPU µs | CPU ÷ plain | sharded commands (µs per call) |\n");
		text.append("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Row row : rows) {
			text.append(String.format(Locale.ROOT,
					"| %s | %,d | %s | %.2f | %.2f | %.2f× | %.2f× | %.2f-%.2f× | %.2f | %.2f | %.2f× | %s |%n", row.version(),
					row.keys(), row.operation().label, row.plain().microsPerCall(), row.sharded().microsPerCall(),
					row.sharded().microsPerCall() / row.plain().microsPerCall(),
					row.sharded().singleMicrosPerCall() / row.plain().microsPerCall(), row.lowest(), row.highest(),
					row.plain().cpuMicrosPerCall(), row.sharded().cpuMicrosPerCall(),
					row.sharded().cpuMicrosPerCall() / row.plain().cpuMicrosPerCall(), row.sharded().breakdown()));
		}
		return text.toString();
	}

	/** The calls measured. */
	enum Operation {

		GET("get", ""), SET("set", ""), MULTI_GET("get 100 keys", ""), MULTI_SET("set 100 keys", ""),
		INCREMENT("increment", ""), GET_NAMED("get, string id", "u"), SET_NAMED("set, string id", "u"),
		MULTI_GET_NAMED("get 100 keys, string ids", "u"), MULTI_SET_NAMED("set 100 keys, string ids", "u"),
		INCREMENT_NAMED("increment, string id", "u");

		private final String label;

		/** What an id starts with: nothing for a numeric id, a letter for a string id. */
		private final String idPrefix;

		Operation(String label, String idPrefix) {
			this.label = label;
			this.idPrefix = idPrefix;
		}

		void run(Store store, SplittableRandom random, int keys) {
			switch (this) {
				case GET, GET_NAMED -> store.get(id(random.nextInt(keys)));
				case SET, SET_NAMED -> store.set(id(random.nextInt(keys)), MemoryCase.randomText(random, 20));
				case MULTI_GET, MULTI_GET_NAMED -> {
					List<String> ids = new ArrayList<>(BATCH);
					for (int i = 0; i < BATCH; i++) {
						ids.add(id(random.nextInt(keys)));
					}
					store.multiGet(ids);
				}
				case MULTI_SET, MULTI_SET_NAMED -> {
					Map<String, String> values = new LinkedHashMap<>();
					for (int i = 0; i < BATCH; i++) {
						values.put(id(random.nextInt(keys)), MemoryCase.randomText(random, 20));
					}
					store.multiSet(values);
				}
				case INCREMENT, INCREMENT_NAMED -> store.increment(id(random.nextInt(1000)));
			}
		}

		private String id(int number) {
			return this.idPrefix + number;
		}

	}

	/**
	 * Microseconds per call, summed and single-counted (see the class), and the commands behind
	 * them.
	 */
	record Cost(double microsPerCall, double singleMicrosPerCall, double cpuMicrosPerCall, Map<String, Double> perCommand,
			String version) {

		/** What runs other commands inside it, and so has their time in its own too. */
		private static final List<String> OUTER = List.of("multi", "exec", "evalsha", "evalsha_ro", "eval", "fcall");

		static Cost of(String commandstats, double cpuMicros, String version, int calls) {
			Map<String, Double> perCommand = new TreeMap<>();
			double total = 0;
			double outer = 0;
			for (String line : commandstats.split("\r?\n")) {
				if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_config") || line.startsWith("cmdstat_info")) {
					continue;
				}
				String name = line.substring("cmdstat_".length(), line.indexOf(':'));
				int at = line.indexOf("usec=") + "usec=".length();
				double usec = Double.parseDouble(line.substring(at, line.indexOf(',', at)));
				perCommand.put(name, usec / calls);
				total += usec;
				outer += OUTER.contains(name) ? usec : 0;
			}
			return new Cost(total / calls, ((outer > 0) ? outer : total) / calls, cpuMicros / calls, perCommand, version);
		}

		/** The mean of rounds of as many calls each. */
		static Cost mean(List<Cost> rounds) {
			Map<String, Double> perCommand = new TreeMap<>();
			double total = 0;
			double single = 0;
			double cpu = 0;
			for (Cost round : rounds) {
				total += round.microsPerCall() / rounds.size();
				single += round.singleMicrosPerCall() / rounds.size();
				cpu += round.cpuMicrosPerCall() / rounds.size();
				round.perCommand().forEach((name, micros) -> perCommand.merge(name, micros / rounds.size(), Double::sum));
			}
			return new Cost(total, single, cpu, perCommand, rounds.get(0).version());
		}

		/** Each command's microseconds per call: {@code HGET 4.73, HMGET 0.02}. */
		String breakdown() {
			StringBuilder breakdown = new StringBuilder();
			this.perCommand.forEach((name, micros) -> breakdown.append((breakdown.length() > 0) ? ", " : "")
				.append(name.toUpperCase(Locale.ROOT)).append(String.format(Locale.ROOT, " %.2f", micros)));
			return breakdown.toString();
		}

	}

	/**
	 * One call, plain and sharded, over all rounds, and the lowest and highest single-counted ratio of
	 * a round.
	 */
	public record Row(String version, int keys, int calls, Operation operation, Cost plain, Cost sharded,
			double lowest, double highest) {

		static Row of(String version, int keys, int calls, Operation operation, List<Cost> plainRounds,
				List<Cost> shardedRounds) {
			RoundRatios rounds = RoundRatios.of(shardedRounds.stream().map(Cost::singleMicrosPerCall).toList(),
					plainRounds.stream().map(Cost::microsPerCall).toList());
			return new Row(version, keys, calls, operation, Cost.mean(plainRounds), Cost.mean(shardedRounds),
					rounds.lowest(), rounds.highest());
		}

	}

	/** Plain keys or the sharded template, by id: {@code 123} or {@code u123}. */
	private interface Store {

		/** Stores {@code keys} values under numeric ids and as many under string ids, and 1,000 counters of each. */
		void load(int keys);

		void get(String id);

		void set(String id, String value);

		void multiGet(List<String> ids);

		void multiSet(Map<String, String> values);

		void increment(String id);

	}

	/** The ids {@link Store#load} stores: {@code 0} to {@code count - 1}, and the same after {@code u}. */
	private static List<String> ids(int count) {
		List<String> ids = new ArrayList<>(2 * count);
		for (int i = 0; i < count; i++) {
			ids.add(Integer.toString(i));
		}
		for (int i = 0; i < count; i++) {
			ids.add("u" + i);
		}
		return ids;
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
			List<String> ids = ids(keys);
			for (int i = 0; i < ids.size(); i++) {
				batch.put(key(ids.get(i)), bytes(MemoryCase.randomText(random, 20)));
				if (batch.size() == 1000 || i == ids.size() - 1) {
					this.redis.mset(batch);
					batch.clear();
				}
			}
			for (String id : ids(1000)) {
				this.redis.set(bytes("counter:" + id), bytes("1"));
			}
		}

		@Override
		public void get(String id) {
			this.redis.get(key(id));
		}

		@Override
		public void set(String id, String value) {
			this.redis.set(key(id), bytes(value));
		}

		@Override
		public void multiGet(List<String> ids) {
			this.redis.mget(ids.stream().map(PlainStore::key).toArray(byte[][]::new));
		}

		@Override
		public void multiSet(Map<String, String> values) {
			Map<byte[], byte[]> raw = new LinkedHashMap<>();
			values.forEach((id, value) -> raw.put(key(id), bytes(value)));
			this.redis.mset(raw);
		}

		@Override
		public void increment(String id) {
			this.redis.incr(bytes("counter:" + id));
		}

		private static byte[] key(String id) {
			return bytes("user:" + id);
		}

		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

	}

	private static final class ShardedStore implements Store {

		private final ShardedTemplate<String> values;

		private final ShardedTemplate<Long> counters;

		/** Namespaces whose hashed buckets are sized for {@code keys} string ids (and 1,000 counters). */
		ShardedStore(ShardedTemplates templates, int keys) {
			this.values = templates.template(
					fill(ShardedNamespace.builder("users").alias("u").keyPrefix("user:").expectedKeys(keys)).build(),
					StringRedisSerializer.UTF_8);
			this.counters = templates.template(
					fill(ShardedNamespace.builder("counters").alias("c").keyPrefix("counter:").expectedKeys(1000)).build(),
					new GenericToStringSerializer<>(Long.class));
		}

		@Override
		public void load(int keys) {
			SplittableRandom random = new SplittableRandom(42);
			Map<String, String> batch = new LinkedHashMap<>();
			List<String> ids = ids(keys);
			for (int i = 0; i < ids.size(); i++) {
				batch.put("user:" + ids.get(i), MemoryCase.randomText(random, 20));
				if (batch.size() == 1000 || i == ids.size() - 1) {
					this.values.multiSet(batch);
					batch.clear();
				}
			}
			Map<String, Long> counts = new LinkedHashMap<>();
			for (String id : ids(1000)) {
				counts.put("counter:" + id, 1L);
			}
			this.counters.multiSet(counts);
		}

		@Override
		public void get(String id) {
			this.values.get("user:" + id);
		}

		@Override
		public void set(String id, String value) {
			this.values.set("user:" + id, value);
		}

		@Override
		public void multiGet(List<String> ids) {
			this.values.multiGet(ids.stream().map((id) -> "user:" + id).toList());
		}

		@Override
		public void multiSet(Map<String, String> values) {
			Map<String, String> named = new LinkedHashMap<>();
			values.forEach((id, value) -> named.put("user:" + id, value));
			this.values.multiSet(named);
		}

		@Override
		public void increment(String id) {
			this.counters.incrBy("counter:" + id, 1);
		}

	}

}
