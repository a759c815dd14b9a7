package dev.slipcase.redis.sharded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.slipcase.redis.test.DurableRedisServer;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.fault.FaultProxy;
import dev.slipcase.redis.test.history.FaultyRun;
import dev.slipcase.redis.test.history.FaultyRun.Fault;
import dev.slipcase.redis.test.history.History;
import dev.slipcase.redis.test.history.HistoryChecker;
import dev.slipcase.redis.test.history.Operation;
import dev.slipcase.redis.test.history.Operation.Kind;
import dev.slipcase.redis.test.history.Outcome;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.GenericToStringSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A seeded, random history of sharded operations (set, setIfAbsent, setKeepTtl, get, delete,
 * expire, persist on registers; increments on counters) on numeric and hashed namespaces (short
 * ids and ids too long for a field, values that fit a field and values that overflow, with and
 * without a bucket TTL, read-through namespaces that start from plain keys), run by several threads
 * through a {@link FaultProxy} that adds latency, loses replies in flight, cuts and resets
 * connections and refuses new ones, against a server that is crashed and restarted from its
 * append-only file ({@code appendfsync always}) now and then, then judged by
 * {@link HistoryChecker}: every read as fresh as the acknowledged writes before it, no write
 * applied after its caller was told it failed, every counter within its bounds; and every bucket
 * still compact. A short run (20 s) is part of the build; {@code SLIPCASE_HISTORY_SECONDS} runs it
 * longer, {@code SLIPCASE_HISTORY_SEED} replays a seed, {@code SLIPCASE_HISTORY_SERVER}
 * ({@code redis70}, {@code redis80}, {@code valkey91}) picks the server. A failure prints the seed.
 */
class ShardedHistoryTests {

	private static final int THREADS = 4;

	private static final String PADDING = "x".repeat(120);

	@Test
	void aHistoryUnderFaultsHasNoAnomaly() throws Exception {
		long seed = FaultyRun.setting("SLIPCASE_HISTORY_SEED", System.nanoTime());
		long seconds = FaultyRun.setting("SLIPCASE_HISTORY_SECONDS", 20);
		String server = System.getProperty("SLIPCASE_HISTORY_SERVER", System.getenv().getOrDefault(
				"SLIPCASE_HISTORY_SERVER", "redis70"));
		try (DurableRedisServer redis = RedisServers.startDurable(binary(server));
				FaultProxy proxy = FaultProxy.start(redis.endpoint())) {
			RedisClient proxied = RedisClient.create(RedisURI.builder(RedisURI.create(proxy.endpoint().uri()))
				.withTimeout(Duration.ofSeconds(1))
				.build());
			RedisClient direct = RedisClient.create(redis.endpoint().uri());
			try (ShardedTemplates through = ShardedTemplates.create(proxied);
					ShardedTemplates checking = ShardedTemplates.create(direct)) {
				Workload workload = new Workload(through);
				History history = new History((failure) -> Outcome.INFO);
				workload.writePlainKeys(history, direct);
				Map<Fault, Integer> faults = FaultyRun.run(proxy, redis::crashAndRestart, THREADS,
						Duration.ofSeconds(seconds), seed,
						(process, sequence, random) -> workload.step(history, process, sequence, random));
				proxy.heal();
				Thread.sleep(1_000);
				new Workload(checking).readEverything(history);

				List<Operation> operations = history.operations();
				List<String> anomalies = HistoryChecker.check(operations);
				long unknown = operations.stream().filter((operation) -> operation.outcome() == Outcome.INFO).count();
				System.out.printf("history seed %d on %s: %d operations (%d unknown), faults %s, %d anomalies%n", seed,
						server, operations.size(), unknown, faults, anomalies.size());
				if (!anomalies.isEmpty()) {
					printHistoriesOf(anomalies, operations);
				}
				assertThat(anomalies).as("anomalies of seed %d on %s (replay with SLIPCASE_HISTORY_SEED=%d)", seed,
						server, seed)
					.isEmpty();
				assertThat(faults.values().stream().mapToInt(Integer::intValue).sum()).as("faults injected").isPositive();
				assertThat(nonCompactBuckets(redis)).as("buckets that left the compact encoding, seed %d", seed).isEmpty();
			}
			finally {
				proxied.shutdown(Duration.ZERO, Duration.ofSeconds(2));
				direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	/** Prints every operation on each key an anomaly names, in invocation order, to read what led to it. */
	private static void printHistoriesOf(List<String> anomalies, List<Operation> operations) {
		operations.stream()
			.map(Operation::key)
			.distinct()
			.filter((key) -> anomalies.stream().anyMatch((anomaly) -> anomaly.startsWith("key " + key + ":")))
			.forEach((key) -> {
				System.out.println("history of " + key + ":");
				operations.stream()
					.filter((operation) -> operation.key().equals(key))
					.sorted(Comparator.comparingLong(Operation::invoked))
					.forEach((operation) -> System.out.println("  " + operation));
			});
	}

	/** Every bucket of the namespaces that is not a compact hash. */
	private static List<String> nonCompactBuckets(RedisServer redis) {
		List<String> wrong = new ArrayList<>();
		@SuppressWarnings("unchecked")
		List<Object> keys = (List<Object>) redis.command("KEYS", "~sc:*");
		for (Object key : keys) {
			String name = String.valueOf(key);
			if ("hash".equals(redis.command("TYPE", name))) {
				Object encoding = redis.command("OBJECT", "ENCODING", name);
				if (!"listpack".equals(encoding) && !"ziplist".equals(encoding) && !"listpackex".equals(encoding)) {
					wrong.add(name + " " + encoding);
				}
			}
		}
		return wrong;
	}

	private static Path binary(String server) {
		return switch (server) {
			case "redis80" -> RedisServers.redis80Binary();
			case "valkey91" -> RedisServers.valkey91Binary();
			default -> RedisServers.serverBinary();
		};
	}

	/** The keys and the operations on them. */
	private static final class Workload {

		private final List<ShardedTemplate<String>> registers = new ArrayList<>();

		private final List<List<String>> registerKeys = new ArrayList<>();

		private final List<ShardedTemplate<Long>> counters = new ArrayList<>();

		private final List<List<String>> counterKeys = new ArrayList<>();

		/** The read-through namespaces' keys, which start as plain keys. */
		private final List<String> plainRegisters;

		private final List<String> plainCounters;

		Workload(ShardedTemplates templates) {
			ShardedNamespace numeric = ShardedNamespace.builder("hist-n").keyPrefix("n:").build();
			ShardedNamespace hashed = ShardedNamespace.builder("hist-h").keyPrefix("h:")
				.strategy(ShardingStrategy.HASHED)
				.build();
			ShardedNamespace bucketTtl = ShardedNamespace.builder("hist-b").keyPrefix("b:")
				.bucketTtl(Duration.ofHours(1))
				.build();
			ShardedNamespace readThrough = ShardedNamespace.builder("hist-r").keyPrefix("r:")
				.strategy(ShardingStrategy.HASHED)
				.readThrough(true)
				.build();
			add(templates.template(numeric, ShardedTemplateContract.STRINGS), ids("n:", false, 40));
			add(templates.template(hashed, ShardedTemplateContract.STRINGS), ids("h:", true, 40));
			add(templates.template(bucketTtl, ShardedTemplateContract.STRINGS), ids("b:", false, 20));
			this.plainRegisters = ids("r:", true, 30);
			add(templates.template(readThrough, ShardedTemplateContract.STRINGS), this.plainRegisters);
			GenericToStringSerializer<Long> longs = new GenericToStringSerializer<>(Long.class);
			this.counters.add(templates.template(ShardedNamespace.builder("hist-c").keyPrefix("c:").build(), longs));
			this.counterKeys.add(ids("c:", false, 16));
			this.counters.add(templates.template(ShardedNamespace.builder("hist-hc").keyPrefix("hc:")
				.strategy(ShardingStrategy.HASHED)
				.build(), longs));
			this.counterKeys.add(ids("hc:", true, 16));
			this.counters.add(templates.template(ShardedNamespace.builder("hist-rc").keyPrefix("rc:")
				.strategy(ShardingStrategy.HASHED)
				.readThrough(true)
				.build(), longs));
			this.plainCounters = ids("rc:", true, 8);
			this.counterKeys.add(this.plainCounters);
		}

		private void add(ShardedTemplate<String> template, List<String> keys) {
			this.registers.add(template);
			this.registerKeys.add(keys);
		}

		/** Numeric ids, or for hashed ones: half short, half too long for a field. */
		private static List<String> ids(String prefix, boolean hashed, int count) {
			List<String> keys = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				keys.add(prefix + (!hashed ? Integer.toString(i) : (i % 2 == 0) ? "u" + i : "L".repeat(90) + i));
			}
			return keys;
		}

		/**
		 * The values the read-through namespaces start with, in plain keys as before a migration,
		 * some with a TTL: recorded as a set (a counter's as an increment from zero).
		 */
		void writePlainKeys(History history, RedisClient redis) {
			try (StatefulRedisConnection<String, String> connection = redis.connect()) {
				RedisCommands<String, String> commands = connection.sync();
				for (int i = 0; i < this.plainRegisters.size(); i++) {
					String key = this.plainRegisters.get(i);
					String value = "plain-" + i + ((i % 3 == 0) ? PADDING : "");
					SetArgs args = (i % 4 == 0) ? SetArgs.Builder.px(Duration.ofHours(2)) : new SetArgs();
					history.run(-2, Kind.SET, key, value, () -> {
						commands.set(key, value, args);
						return null;
					});
				}
				for (String key : this.plainCounters) {
					history.run(-2, Kind.INCREMENT, key, "41", () -> Long.toString(commands.incrby(key, 41)));
				}
			}
		}

		void step(History history, int process, int sequence, Random random) {
			if (random.nextInt(10) == 0) {
				int namespace = random.nextInt(this.counters.size());
				ShardedTemplate<Long> counter = this.counters.get(namespace);
				List<String> keys = this.counterKeys.get(namespace);
				String key = keys.get(random.nextInt(keys.size()));
				if (random.nextBoolean()) {
					history.run(process, Kind.INCREMENT, key, "1", () -> Long.toString(counter.incrBy(key, 1)));
				}
				else {
					history.run(process, Kind.GET, key, null, () -> text(counter.get(key)));
				}
				return;
			}
			int namespace = random.nextInt(this.registers.size());
			ShardedTemplate<String> template = this.registers.get(namespace);
			List<String> keys = this.registerKeys.get(namespace);
			String key = keys.get(random.nextInt(keys.size()));
			String value = "p" + process + "-" + sequence + (random.nextInt(3) == 0 ? PADDING : "");
			int choice = random.nextInt(100);
			if (choice < 35) {
				history.run(process, Kind.GET, key, null, () -> template.get(key));
			}
			else if (choice < 55) {
				history.run(process, Kind.SET, key, value, () -> {
					template.set(key, value);
					return null;
				});
			}
			else if (choice < 63) {
				history.run(process, Kind.SET_IF_ABSENT, key, value, () -> Boolean.toString(template.setIfAbsent(key, value)));
			}
			else if (choice < 71) {
				history.run(process, Kind.SET_KEEP_TTL, key, value, () -> {
					template.setKeepTtl(key, value);
					return null;
				});
			}
			else if (choice < 82) {
				history.run(process, Kind.DELETE, key, null, () -> Boolean.toString(template.delete(key)));
			}
			else if (choice < 92) {
				history.run(process, Kind.EXPIRE, key, null,
						() -> Boolean.toString(template.expire(key, Duration.ofHours(1))));
			}
			else {
				history.run(process, Kind.PERSIST, key, null, () -> Boolean.toString(template.persist(key)));
			}
		}

		/** One final read of every key, after the faults. */
		void readEverything(History history) {
			for (int namespace = 0; namespace < this.registers.size(); namespace++) {
				ShardedTemplate<String> template = this.registers.get(namespace);
				for (String key : this.registerKeys.get(namespace)) {
					history.run(-1, Kind.GET, key, null, () -> template.get(key));
				}
			}
			for (int namespace = 0; namespace < this.counters.size(); namespace++) {
				ShardedTemplate<Long> counter = this.counters.get(namespace);
				for (String key : this.counterKeys.get(namespace)) {
					history.run(-1, Kind.GET, key, null, () -> text(counter.get(key)));
				}
			}
		}

		private static String text(Long value) {
			return (value != null) ? value.toString() : null;
		}

	}

}
