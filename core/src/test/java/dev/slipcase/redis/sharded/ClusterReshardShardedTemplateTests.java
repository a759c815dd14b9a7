package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.history.History;
import dev.slipcase.redis.test.history.HistoryChecker;
import dev.slipcase.redis.test.history.Operation;
import dev.slipcase.redis.test.history.Operation.Kind;
import dev.slipcase.redis.test.history.Outcome;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator's reshard under load: {@code redis-cli --cluster reshard} moves the slots of a
 * numeric and a hashed bucket to another master, 10,000 other keys in the numeric bucket's slot
 * moved one per {@code MIGRATE} making the move take seconds, while 8 writers set, increment and
 * read keys of both buckets: six write values that fit a field, two values that overflow (which
 * wait out a migration). Every call succeeds (none refused); small sets of the bucket begin and end
 * while its slot migrates; and the history checker finds every read as fresh as the acknowledged
 * writes before it and every counter exact: nothing lost, nothing applied twice. The client has the
 * resources Slipcase's starter gives Boot's: each MULTI block goes out as one command.
 */
class ClusterReshardShardedTemplateTests {

	private static final int WRITERS = 8;

	private static final int OTHER_KEYS = 10_000;

	/** Slots redis-cli moves: the lowest ones of the master holding slot 0. */
	private static final int SLOTS_MOVED = 16;

	@Test
	void writesDuringAReshardOfTheirSlotsAllSucceedAndNoneIsLostOrAppliedTwice() throws Exception {
		try (RedisCluster cluster = RedisServers.startCluster()) {
			ClientResources resources = WriteCoalescing.configure(ClientResources.builder()).build();
			RedisClusterClient client = RedisClusterClient.create(resources,
					cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList());
			try (ShardedTemplates templates = ShardedTemplates.create(client);
					StatefulRedisClusterConnection<String, String> connection = client.connect()) {
				ShardedNamespace numeric = inLowSlot(ShardingStrategy.NUMERIC, "n:0}");
				ShardedNamespace hashed = inLowSlot(ShardingStrategy.HASHED, "h:0}");
				List<ShardedTemplate<String>> templatesUnderTest = List.of(
						templates.template(numeric, StringRedisSerializer.UTF_8),
						templates.template(hashed, StringRedisSerializer.UTF_8));
				String numericBucket = numeric.ownedKeyPrefix() + "n:0}";
				int slot = SlotHash.getSlot(numericBucket);
				fillSlot(connection, numericBucket);
				RedisServer from = cluster.masterOf(0);
				RedisServer to = cluster.masters().stream().filter((node) -> node != from).findFirst().orElseThrow();
				assertThat(cluster.masterOf(slot)).isSameAs(from);
				assertThat(cluster.masterOf(SlotHash.getSlot(hashed.ownedKeyPrefix() + "h:0}"))).isSameAs(from);

				History history = new History((failure) -> Outcome.INFO);
				Workload workload = new Workload(templatesUnderTest);
				workload.start(history);
				MigrationWatch watch = new MigrationWatch(from, slot);
				AtomicBoolean running = new AtomicBoolean(true);
				ExecutorService writers = Executors.newFixedThreadPool(WRITERS + 1);
				List<Future<?>> done = new ArrayList<>();
				try {
					done.add(writers.submit(() -> watch.run(running)));
					for (int process = 0; process < WRITERS; process++) {
						int writer = process;
						// two writers of values that overflow, which wait out a migration; six of the rest
						boolean large = writer < 2;
						done.add(writers.submit(() -> {
							Random random = new Random(writer);
							while (running.get()) {
								workload.step(history, writer, large, random);
							}
							return null;
						}));
					}
					Thread.sleep(200);
					cluster.reshard((String) from.command("CLUSTER", "MYID"), (String) to.command("CLUSTER", "MYID"),
							SLOTS_MOVED, 1);
					Thread.sleep(200);
				}
				finally {
					running.set(false);
					try {
						for (Future<?> future : done) {
							future.get(2, TimeUnit.MINUTES);
						}
					}
					finally {
						writers.shutdownNow();
					}
				}
				workload.readEverything(history);

				assertThat(cluster.masterOf(slot)).as("the slot moved").isSameAs(to);
				List<Operation> operations = history.operations();
				List<Operation> duringMigration = operations.stream()
					.filter((operation) -> operation.key().startsWith(numeric.keyPrefix()))
					.filter((operation) -> operation.kind() == Kind.SET && !operation.argument().startsWith(Workload.LARGE))
					.filter((operation) -> watch.contains(operation.invoked(), operation.completed()))
					.toList();
				System.out.printf("%d operations, %d small sets of the numeric bucket begun and done in the %d ms its "
						+ "slot migrated, %d redirections%n", operations.size(), duringMigration.size(),
						watch.millis(), redirections(from));
				assertThat(operations.stream().filter((operation) -> operation.outcome() != Outcome.OK))
					.as("calls that failed during the reshard").isEmpty();
				assertThat(HistoryChecker.check(operations)).as("anomalies").isEmpty();
				assertThat(duringMigration).as("small sets of the bucket begun and done while its slot migrated")
					.isNotEmpty();
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
				resources.shutdown(0, 2, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * A namespace whose bucket {@code bucket} (after its owned prefix) is in one of the slots
	 * redis-cli moves, by the choice of its alias.
	 */
	private static ShardedNamespace inLowSlot(ShardingStrategy strategy, String bucket) {
		for (int n = 0;; n++) {
			String alias = "r" + n;
			ShardedNamespace namespace = ShardedNamespace.builder("reshard-" + strategy.name().toLowerCase() + n)
				.alias(alias)
				.keyPrefix(strategy.name().toLowerCase() + ":")
				.strategy(strategy)
				.bucketCount(1)
				.build();
			if (SlotHash.getSlot(namespace.ownedKeyPrefix() + bucket) < SLOTS_MOVED) {
				return namespace;
			}
		}
	}

	/** Writes 10,000 keys into the slot of {@code bucket}, under its hash tag. */
	private static void fillSlot(StatefulRedisClusterConnection<String, String> connection, String bucket) {
		String tag = bucket.substring(bucket.indexOf('{'));
		Map<String, String> batch = new LinkedHashMap<>();
		for (int i = 0; i < OTHER_KEYS; i++) {
			batch.put("other" + tag + i, "x".repeat(20));
			if (batch.size() == 1000) {
				connection.sync().mset(batch);
				batch.clear();
			}
		}
	}

	/** How often {@code node} answered {@code ASK} or {@code TRYAGAIN}. */
	private static long redirections(RedisServer node) {
		return ((String) node.command("INFO", "errorstats")).lines()
			.filter((line) -> line.startsWith("errorstat_ASK:") || line.startsWith("errorstat_TRYAGAIN:"))
			.mapToLong((line) -> Long.parseLong(line.replaceAll(".*count=(\\d+).*", "$1")))
			.sum();
	}

	/**
	 * When a slot was seen migrating on its old master: from the first {@code CLUSTER NODES} that
	 * shows it {@code MIGRATING} to the last.
	 */
	private static final class MigrationWatch {

		private final RedisServer node;

		private final String marker;

		private volatile long first;

		private volatile long last;

		MigrationWatch(RedisServer node, int slot) {
			this.node = node;
			this.marker = "[" + slot + "->-";
		}

		/** Looks every 10 ms while {@code running}. */
		Void run(AtomicBoolean running) throws InterruptedException {
			while (running.get()) {
				long now = System.nanoTime();
				if (((String) this.node.command("CLUSTER", "NODES")).contains(this.marker)) {
					if (this.first == 0) {
						this.first = now;
					}
					this.last = now;
				}
				Thread.sleep(10);
			}
			return null;
		}

		/** Whether {@code from} to {@code to} (nanoTime) lies within the migration seen. */
		boolean contains(long from, long to) {
			return this.first != 0 && from >= this.first && to <= this.last;
		}

		long millis() {
			return TimeUnit.NANOSECONDS.toMillis(this.last - this.first);
		}

	}

	/**
	 * Registers and counters in each namespace; a step sets a register to a value that fits or one
	 * that overflows, reads one, or increments a counter.
	 */
	private static final class Workload {

		private static final String LARGE = "L".repeat(300);

		private final List<ShardedTemplate<String>> templates;

		private final List<List<String>> registers = new ArrayList<>();

		private final List<List<String>> largeRegisters = new ArrayList<>();

		private final List<List<String>> counters = new ArrayList<>();

		private final AtomicInteger sequence = new AtomicInteger();

		Workload(List<ShardedTemplate<String>> templates) {
			this.templates = templates;
			for (ShardedTemplate<String> template : templates) {
				boolean hashed = template.namespace().strategy() == ShardingStrategy.HASHED;
				String prefix = template.namespace().keyPrefix();
				List<String> registers = new ArrayList<>();
				List<String> largeRegisters = new ArrayList<>();
				List<String> counters = new ArrayList<>();
				for (int i = 0; i < 12; i++) {
					registers.add(prefix + (hashed ? "u" : "") + i);
					largeRegisters.add(prefix + (hashed ? "l" : "") + (50 + i));
					counters.add(prefix + (hashed ? "c" : "") + (100 + i));
				}
				this.registers.add(registers);
				this.largeRegisters.add(largeRegisters);
				this.counters.add(counters);
			}
		}

		/** Gives every register and counter a first value. */
		void start(History history) {
			for (int namespace = 0; namespace < this.templates.size(); namespace++) {
				ShardedTemplate<String> template = this.templates.get(namespace);
				for (String key : allRegisters(namespace)) {
					history.run(-1, Kind.SET, key, "start", () -> {
						template.set(key, "start");
						return null;
					});
				}
			}
		}

		/**
		 * One call: a writer of large values sets a large register to a value that overflows, or
		 * reads one; another writer sets a register to a value that fits, reads one, or increments a
		 * counter.
		 */
		void step(History history, int process, boolean large, Random random) {
			int namespace = random.nextInt(this.templates.size());
			ShardedTemplate<String> template = this.templates.get(namespace);
			int choice = random.nextInt(10);
			if (!large && choice < 3) {
				String key = pick(this.counters.get(namespace), random);
				history.run(process, Kind.INCREMENT, key, "1", () -> Long.toString(template.incrBy(key, 1)));
				return;
			}
			String key = pick((large ? this.largeRegisters : this.registers).get(namespace), random);
			if (choice < 6) {
				history.run(process, Kind.GET, key, null, () -> template.get(key));
				return;
			}
			String value = (large ? LARGE : "") + "p" + process + "s" + this.sequence.incrementAndGet();
			history.run(process, Kind.SET, key, value, () -> {
				template.set(key, value);
				return null;
			});
		}

		/** Reads every register once the writers stopped. */
		void readEverything(History history) {
			for (int namespace = 0; namespace < this.templates.size(); namespace++) {
				ShardedTemplate<String> template = this.templates.get(namespace);
				for (String key : allRegisters(namespace)) {
					history.run(-1, Kind.GET, key, null, () -> template.get(key));
				}
			}
		}

		private List<String> allRegisters(int namespace) {
			List<String> all = new ArrayList<>(this.registers.get(namespace));
			all.addAll(this.largeRegisters.get(namespace));
			return all;
		}

		private static String pick(List<String> keys, Random random) {
			return keys.get(random.nextInt(keys.size()));
		}

	}

}
