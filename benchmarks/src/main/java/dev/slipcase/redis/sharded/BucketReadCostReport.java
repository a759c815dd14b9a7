package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * What a read of 100 random keys costs the server, by the shape it takes on the wire: one
 * {@code MGET} of plain keys, 100 {@code HGET}s of hash fields sent together (what the sharded
 * template sends when 100 keys fall in ~100 buckets), and one script running those 100
 * {@code HGET}s, with buckets of 128, 64 and 32 fields. One fresh server of each kind holds
 * 1,000,000 plain keys and the same 1,000,000 values in buckets of each size, side by side, so
 * every shape reads the same server with the same caches. The microseconds are
 * {@code INFO commandstats}'s per call: a script's are its own, which include the {@code HGET}s
 * it runs; the server process's CPU time ({@code INFO cpu}) holds reading, parsing and replying
 * too. Each shape runs in 5 rounds, their order turning, and a row gives each ratio's lowest and
 * highest round. With {@code SLIPCASE_REDIS_URL} set, every kind is that one external server.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.sharded.BucketReadCostReport [keys [calls]]</pre>
 */
public final class BucketReadCostReport {

	private static final int ROUNDS = 5;

	private static final int BATCH = 100;

	private static final int[] BUCKET_FIELDS = { 128, 64, 32 };

	/** Reads every field a call names, as the sharded template's read of a bucket would. */
	private static final String SCRIPT = "local values = {} "
			+ "for i = 1, #KEYS do values[i] = redis.call('HGET', KEYS[i], ARGV[i]) end return values";

	private BucketReadCostReport() {
	}

	public static void main(String[] args) {
		int keys = (args.length > 0) ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
		int calls = (args.length > 1) ? Integer.parseInt(args[1].replace("_", "")) : 2_000;
		List<Row> rows = new ArrayList<>();
		rows.addAll(measure(RedisServers::start, keys, calls));
		rows.addAll(measure(RedisServers::startRedis80, keys, calls));
		rows.addAll(measure(RedisServers::startValkey91, keys, calls));
		System.out.println(markdown(keys, rows));
	}

	/** Each shape's cost on a fresh server from {@code servers} holding {@code keys} values of each kind. */
	static List<Row> measure(Supplier<RedisServer> servers, int keys, int calls) {
		try (RedisServer server = servers.get()) {
			server.flushAll();
			RedisClient client = RedisClient.create(server.endpoint().uri());
			try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
				connection.setTimeout(Duration.ofMinutes(1));
				RedisAsyncCommands<byte[], byte[]> redis = connection.async();
				load(connection, keys);
				String sha = connection.sync().scriptLoad(SCRIPT);
				String version = ShardedServerTimeReport.engine(server);
				List<Row> rows = new ArrayList<>();
				int perRound = Math.max(1, calls / ROUNDS);
				List<Shape> shapes = new ArrayList<>();
				shapes.add(new Shape("MGET", 0, false));
				for (int fields : BUCKET_FIELDS) {
					shapes.add(new Shape("HGET", fields, false));
					shapes.add(new Shape("script", fields, true));
				}
				Map<Shape, List<Double>> micros = new LinkedHashMap<>();
				Map<Shape, List<Double>> cpu = new LinkedHashMap<>();
				shapes.forEach((shape) -> {
					micros.put(shape, new ArrayList<>());
					cpu.put(shape, new ArrayList<>());
				});
				for (int round = 0; round < ROUNDS; round++) {
					for (int turn = 0; turn < shapes.size(); turn++) {
						Shape shape = shapes.get((turn + round) % shapes.size());
						server.command("CONFIG", "RESETSTAT");
						double cpuBefore = ShardedServerTimeReport.cpuMicros(server);
						SplittableRandom random = new SplittableRandom(17 + round);
						for (int call = 0; call < perRound; call++) {
							read(redis, connection, shape, sha, random, keys);
						}
						cpu.get(shape).add((ShardedServerTimeReport.cpuMicros(server) - cpuBefore) / perRound);
						micros.get(shape).add(outerMicros((String) server.command("INFO", "commandstats"), shape) / perRound);
					}
				}
				for (Shape shape : shapes) {
					rows.add(Row.of(version, perRound * ROUNDS, shape, micros.get(shape), micros.get(shapes.get(0)),
							cpu.get(shape), cpu.get(shapes.get(0))));
				}
				return rows;
			}
			finally {
				client.shutdown();
			}
		}
	}

	/** {@code keys} plain keys {@code user:<n>} and each value again in buckets of every size. */
	private static void load(StatefulRedisConnection<byte[], byte[]> connection, int keys) {
		SplittableRandom random = new SplittableRandom(42);
		byte[][] values = new byte[keys][];
		for (int i = 0; i < keys; i++) {
			values[i] = bytes(MemoryCase.randomText(random, 20));
		}
		RedisAsyncCommands<byte[], byte[]> redis = connection.async();
		List<RedisFuture<?>> sent = new ArrayList<>();
		Map<byte[], byte[]> batch = new LinkedHashMap<>();
		for (int i = 0; i < keys; i++) {
			batch.put(bytes("user:" + i), values[i]);
			if (batch.size() == 1000 || i == keys - 1) {
				sent.add(redis.mset(batch));
				batch = new LinkedHashMap<>();
			}
		}
		for (int fields : BUCKET_FIELDS) {
			for (int first = 0; first < keys; first += fields) {
				Map<byte[], byte[]> bucket = new LinkedHashMap<>();
				for (int i = first; i < Math.min(keys, first + fields); i++) {
					bucket.put(bytes(Integer.toString(i - first)), values[i]);
				}
				sent.add(redis.hset(bucketKey(fields, first / fields), bucket));
				if (sent.size() >= 1000) {
					await(sent);
					sent.clear();
				}
			}
		}
		await(sent);
	}

	private static void read(RedisAsyncCommands<byte[], byte[]> redis, StatefulRedisConnection<byte[], byte[]> connection,
			Shape shape, String sha, SplittableRandom random, int keys) {
		int[] ids = new int[BATCH];
		for (int i = 0; i < BATCH; i++) {
			ids[i] = random.nextInt(keys);
		}
		if (shape.fields() == 0) {
			byte[][] names = new byte[BATCH][];
			for (int i = 0; i < BATCH; i++) {
				names[i] = bytes("user:" + ids[i]);
			}
			await(List.of(redis.mget(names)));
			return;
		}
		byte[][] buckets = new byte[BATCH][];
		byte[][] fields = new byte[BATCH][];
		for (int i = 0; i < BATCH; i++) {
			buckets[i] = bucketKey(shape.fields(), ids[i] / shape.fields());
			fields[i] = bytes(Integer.toString(ids[i] % shape.fields()));
		}
		if (shape.script()) {
			await(List.of(redis.evalsha(sha, ScriptOutputType.MULTI, buckets, fields)));
			return;
		}
		List<RedisFuture<?>> sent = new ArrayList<>(BATCH);
		connection.setAutoFlushCommands(false);
		try {
			for (int i = 0; i < BATCH; i++) {
				sent.add(redis.hget(buckets[i], fields[i]));
			}
			connection.flushCommands();
		}
		finally {
			connection.setAutoFlushCommands(true);
		}
		await(sent);
	}

	/** The microseconds of the command that carries a read of {@code shape}: the script's own for a script. */
	private static double outerMicros(String commandstats, Shape shape) {
		String name = shape.script() ? "evalsha" : shape.command().toLowerCase(Locale.ROOT);
		Double micros = ShardedServerTimeReport.Cost.of(commandstats, 0, "", 1).perCommand().get(name);
		if (micros == null) {
			throw new IllegalStateException("No " + name + " in " + commandstats);
		}
		return micros;
	}

	private static byte[] bucketKey(int fields, int number) {
		return bytes("b" + fields + ":{" + number + "}");
	}

	private static void await(List<RedisFuture<?>> sent) {
		if (!LettuceFutures.awaitAll(1, TimeUnit.MINUTES, sent.toArray(new RedisFuture<?>[0]))) {
			throw new IllegalStateException("Commands did not complete within a minute");
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String markdown(int keys, List<Row> rows) {
		StringBuilder text = new StringBuilder();
		text.append(String.format(Locale.ROOT, "A read of 100 random keys among %,d, %,d calls per shape in %d rounds: ", keys,
				rows.isEmpty() ? 0 : rows.get(0).calls(), ROUNDS))
			.append("`INFO commandstats` microseconds per call of `MGET`, of the 100 `HGET`s sent together, and of ")
			.append("the script that runs them (its own time, which holds its `HGET`s'), which time each command's own ")
			.append("work only; and the server process's CPU time per call (`INFO cpu`), which also holds reading and ")
			.append("parsing the requests and writing the replies. \"Rounds\" is the lowest and highest ratio of a round.\n\n");
		text.append("| server | read | bucket fields | µs per call | ÷ MGET | rounds | CPU µs per call | CPU ÷ MGET | CPU rounds |\n");
		text.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Row row : rows) {
			text.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f× | %.2f-%.2f× | %.2f | %.2f× | %.2f-%.2f× |%n",
					row.version(), row.shape().label(),
					(row.shape().fields() == 0) ? "-" : Integer.toString(row.shape().fields()), row.micros().mean(),
					row.micros().ratio(), row.micros().lowest(), row.micros().highest(), row.cpu().mean(),
					row.cpu().ratio(), row.cpu().lowest(), row.cpu().highest()));
		}
		return text.toString();
	}

	/**
	 * A shape of a 100-key read.
	 * @param command the command sent, {@code MGET} or {@code HGET}
	 * @param fields the fields of a bucket, 0 for plain keys
	 * @param script whether the {@code HGET}s run in one script
	 */
	record Shape(String command, int fields, boolean script) {

		String label() {
			return (this.fields == 0) ? "MGET" : this.script ? "script of 100 HGETs" : "100 HGETs";
		}

	}

	/** A shape's cost by {@code INFO commandstats} and by the server's CPU time, over {@code calls} calls. */
	record Row(String version, int calls, Shape shape, Ratio micros, Ratio cpu) {

		static Row of(String version, int calls, Shape shape, List<Double> micros, List<Double> mgetMicros,
				List<Double> cpu, List<Double> mgetCpu) {
			return new Row(version, calls, shape, Ratio.of(micros, mgetMicros), Ratio.of(cpu, mgetCpu));
		}

	}

	/** A mean per call over the rounds, its ratio to {@code MGET}'s, and the lowest and highest ratio of a round. */
	record Ratio(double mean, double ratio, double lowest, double highest) {

		static Ratio of(List<Double> rounds, List<Double> mget) {
			RoundRatios ratios = RoundRatios.of(rounds, mget);
			double mean = rounds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
			double mgetMean = mget.stream().mapToDouble(Double::doubleValue).average().orElse(0);
			return new Ratio(mean, mean / mgetMean, ratios.lowest(), ratios.highest());
		}

	}

}
