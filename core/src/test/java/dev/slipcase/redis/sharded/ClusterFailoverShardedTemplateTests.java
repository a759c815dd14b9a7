package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sharded template under load on a real cluster of three masters with a replica each, while
 * slots move ({@code redis-cli --cluster reshard}), a replica takes over ({@code CLUSTER FAILOVER})
 * and a master is killed with {@code SIGKILL} and replaced by its replica: no acknowledged write is
 * lost, every failure is a Spring {@link DataAccessException}, and reads recover.
 */
class ClusterFailoverShardedTemplateTests {

	private static final int KEYS = 30_000;

	private static final int WRITERS = 3;

	private static final Duration ROLE_TIMEOUT = Duration.ofSeconds(30);

	@Test
	void acknowledgedWritesSurviveReshardFailoverAndAKilledMaster() throws Exception {
		try (RedisCluster cluster = RedisServers.startClusterWithReplicas()) {
			// a short command timeout, so that a write to the killed master fails soon rather than in a minute
			List<RedisURI> seeds = cluster.endpoints().stream()
				.map((endpoint) -> RedisURI.builder(RedisURI.create(endpoint.uri())).withTimeout(Duration.ofSeconds(3)).build())
				.toList();
			RedisClusterClient client = RedisClusterClient.create(seeds);
			// what a user sets for failover: refresh the topology when Lettuce sees MOVED, ASK or a
			// reconnect, and every second anyway, so a promoted replica is found without waiting
			client.setOptions(ClusterClientOptions.builder()
				.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
					.enableAllAdaptiveRefreshTriggers()
					.enablePeriodicRefresh(Duration.ofSeconds(1))
					.build())
				.build());
			try (ShardedTemplates templates = ShardedTemplates.create(client)) {
				ShardedTemplate<String> template = templates.template(
						ShardedNamespace.builder("failover").alias("f").keyPrefix("k:").build(), StringRedisSerializer.UTF_8);
				Map<String, String> acknowledged = new ConcurrentHashMap<>();
				// values of writes that failed after the last acknowledged one: Redis may have applied them
				Map<String, Set<String>> uncertain = new ConcurrentHashMap<>();
				Map<Class<?>, Integer> failures = new ConcurrentHashMap<>();
				Map<Class<?>, Integer> unexpected = new ConcurrentHashMap<>();

				// load every key once, so that each bucket exists on its master before slots move
				Map<String, String> initial = new LinkedHashMap<>();
				for (int id = 0; id < KEYS; id++) {
					initial.put("k:" + id, "v0");
					if (initial.size() == 1000) {
						template.multiSet(initial);
						acknowledged.putAll(initial);
						initial.clear();
					}
				}

				AtomicBoolean running = new AtomicBoolean(true);
				ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
				List<Future<?>> workers = new ArrayList<>();
				for (int w = 0; w < WRITERS; w++) {
					int writer = w;
					workers.add(pool.submit(() -> write(template, writer, running, acknowledged, uncertain, failures,
							unexpected)));
				}
				workers.add(pool.submit(() -> read(template, running, failures, unexpected)));

				Thread.sleep(500);
				// 1. move slots, keys and buckets included, from one master to another
				List<RedisServer> masters = cluster.masters();
				long before = (Long) masters.get(1).command("DBSIZE");
				cluster.reshard(nodeId(masters.get(0)), nodeId(masters.get(1)), 300);
				assertThat((Long) masters.get(1).command("DBSIZE")).as("buckets moved with the slots")
					.isGreaterThan(before);
				Thread.sleep(500);
				// 2. a replica takes over from its master, gracefully
				RedisServer replica = cluster.replicaOf(nodeId(masters.get(1)));
				assertThat(replica.command("CLUSTER", "FAILOVER")).isEqualTo("OK");
				replica.awaitRole("master", ROLE_TIMEOUT);
				cluster.awaitHealthy();
				Thread.sleep(500);

				running.set(false);
				for (Future<?> worker : workers) {
					worker.get(2, TimeUnit.MINUTES);
				}
				// every acknowledged write is on a replica before a master crashes (replication is
				// asynchronous: Redis itself loses what a killed master never sent)
				for (RedisServer master : cluster.masters()) {
					assertThat((Long) master.command("WAIT", "1", "5000")).isEqualTo(1L);
				}

				// 3. kill -9 of a master, writes to other keys going on meanwhile; its replica takes over
				AtomicBoolean late = new AtomicBoolean(true);
				Map<Class<?>, Integer> lateFailures = new ConcurrentHashMap<>();
				Future<?> lateWriter = pool.submit(() -> {
					for (int i = 0; late.get(); i++) {
						try {
							template.set("k:" + (KEYS + i % 1000), "late");
						}
						catch (DataAccessException ex) {
							lateFailures.merge(ex.getClass(), 1, Integer::sum);
						}
						catch (RuntimeException ex) {
							unexpected.merge(ex.getClass(), 1, Integer::sum);
						}
					}
				});
				RedisServer victim = cluster.masters().get(2);
				RedisServer heir = cluster.replicaOf(nodeId(victim));
				victim.kill();
				heir.awaitRole("master", ROLE_TIMEOUT);
				cluster.awaitHealthy();
				Thread.sleep(1000);
				late.set(false);
				lateWriter.get(2, TimeUnit.MINUTES);
				pool.shutdown();

				System.out.println("failures during reshard and failover: " + failures + "; after the kill: "
						+ lateFailures);
				assertThat(unexpected).as("every failure is a DataAccessException").isEmpty();
				List<String> keys = new ArrayList<>(acknowledged.keySet());
				Map<String, String> read = readAll(template, keys);
				List<String> lost = new ArrayList<>();
				acknowledged.forEach((key, value) -> {
					String stored = read.get(key);
					if (!value.equals(stored) && !uncertain.getOrDefault(key, Set.of()).contains(stored)) {
						lost.add(key + " acknowledged " + value + " read " + stored);
					}
				});
				assertThat(lost).as("acknowledged writes lost").isEmpty();
			}
			finally {
				client.shutdown();
			}
		}
	}

	/**
	 * Each writer owns the keys whose id leaves its number modulo the writers, so the last value
	 * acknowledged for a key is well defined; it sets single keys and batches of 20.
	 */
	private static void write(ShardedTemplate<String> template, int writer, AtomicBoolean running,
			Map<String, String> acknowledged, Map<String, Set<String>> uncertain, Map<Class<?>, Integer> failures,
			Map<Class<?>, Integer> unexpected) {
		for (int round = 1; running.get(); round++) {
			int base = ((round * 7919) % (KEYS / WRITERS)) * WRITERS + writer;
			String value = "w" + writer + "-" + round;
			Map<String, String> batch = new HashMap<>();
			if (round % 2 == 0) {
				batch.put("k:" + base, value);
			}
			else {
				// ids stay in this writer's residue class: base is, and the step is a multiple of WRITERS
				for (int i = 0; i < 20; i++) {
					batch.put("k:" + ((base + i * WRITERS * 97) % KEYS), value);
				}
			}
			try {
				if (batch.size() == 1) {
					template.set("k:" + base, value);
				}
				else {
					template.multiSet(batch);
				}
				batch.keySet().forEach(uncertain::remove);
				acknowledged.putAll(batch);
			}
			catch (DataAccessException ex) {
				batch.keySet().forEach((key) -> uncertain.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet())
					.add(value));
				failures.merge(ex.getClass(), 1, Integer::sum);
			}
			catch (RuntimeException ex) {
				unexpected.merge(ex.getClass(), 1, Integer::sum);
			}
		}
	}

	private static void read(ShardedTemplate<String> template, AtomicBoolean running, Map<Class<?>, Integer> failures,
			Map<Class<?>, Integer> unexpected) {
		for (int round = 0; running.get(); round++) {
			try {
				List<String> keys = new ArrayList<>();
				for (int i = 0; i < 50; i++) {
					keys.add("k:" + ((round * 131 + i * 593) % KEYS));
				}
				assertThat(template.multiGet(keys)).doesNotContainNull();
				assertThat(template.get(keys.get(0))).isNotNull();
			}
			catch (DataAccessException ex) {
				failures.merge(ex.getClass(), 1, Integer::sum);
			}
			catch (RuntimeException ex) {
				unexpected.merge(ex.getClass(), 1, Integer::sum);
			}
		}
	}

	/** Every value, retried for up to 30 seconds while the cluster settles. */
	private static Map<String, String> readAll(ShardedTemplate<String> template, List<String> keys)
			throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (true) {
			try {
				Map<String, String> read = new HashMap<>();
				for (int from = 0; from < keys.size(); from += 500) {
					List<String> page = keys.subList(from, Math.min(keys.size(), from + 500));
					List<String> values = template.multiGet(page);
					for (int i = 0; i < page.size(); i++) {
						read.put(page.get(i), values.get(i));
					}
				}
				return read;
			}
			catch (DataAccessException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				Thread.sleep(200);
			}
		}
	}

	/** The node id of {@code node} ({@code CLUSTER MYID}). */
	private static String nodeId(RedisServer node) {
		return (String) node.command("CLUSTER", "MYID");
	}

}
