package dev.slipcase.redis.autoconfigure.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.near.NearRedisCache;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The near tier on a real cluster of three masters with a replica each, when a master is killed
 * with {@code SIGKILL} and its replica takes over: the tier is cleared and bypassed until the new
 * master is tracked too, and then a plain Lettuce client's writes to the keys the new master holds
 * reach every near entry (0 stale).
 */
class NearCacheClusterFailoverTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final int KEYS = 300;

	@Test
	void aFailoverClearsTheTierAndTheNewMasterIsTracked() throws Exception {
		try (RedisCluster cluster = RedisServers.startClusterWithReplicas()) {
			String nodes = String.join(",",
					cluster.endpoints().stream().map((endpoint) -> endpoint.host() + ":" + endpoint.port()).toList());
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
						SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
				.withUserConfiguration(ItemApp.class)
				// what a user sets for failover: adaptive and periodic topology refresh
				.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes, "spring.data.redis.timeout=3s",
						"spring.data.redis.lettuce.cluster.refresh.adaptive=true",
						"spring.data.redis.lettuce.cluster.refresh.period=1s", "spring.cache.type=redis",
						"spring.cache.redis.key-prefix=failover:", "slipcase.redis.cache.near.enabled=true",
						"slipcase.redis.cache.near.heartbeat=250ms");
			RedisClusterClient plain = RedisClusterClient.create(
					cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList());
			try (StatefulRedisClusterConnection<byte[], byte[]> connection = plain.connect(ByteArrayCodec.INSTANCE)) {
				runner.run((context) -> {
					NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
					NearRedisCache items = (NearRedisCache) manager.getCache("items");
					waitUntil(items.near()::isTrusted);
					// each connection is listed once its opening completed, a moment after it reported tracking
					waitUntil(() -> manager.tracking().clientIds(Duration.ofSeconds(5)).size() == 3);
					for (int key = 0; key < KEYS; key++) {
						items.put(key, new Item(key, 0));
					}
					waitUntil(() -> allHeld(items));

					RedisServer victim = cluster.masters().get(2);
					RedisServer heir = cluster.replicaOf((String) victim.command("CLUSTER", "MYID"));
					long flushes = items.near().flushes();
					victim.kill();
					waitUntil(() -> items.near().flushes() > flushes);
					heir.awaitRole("master", TIMEOUT);
					cluster.awaitHealthy();
					waitUntil(() -> manager.tracking().isTracking() && manager.tracking()
						.clientIds(Duration.ofSeconds(5))
						.keySet()
						.stream()
						.anyMatch((name) -> name.endsWith(":" + heir.endpoint().port())));

					// every key read again through the tier, then changed by a client Slipcase knows nothing of
					waitUntil(() -> allHeld(items));
					plain.refreshPartitions();
					for (int key = 0; key < KEYS; key++) {
						ByteBuffer value = items.getCacheConfiguration().getValueSerializationPair().write(new Item(key, 1));
						byte[] bytes = new byte[value.remaining()];
						value.get(bytes);
						connection.sync().set(("failover:items::" + key).getBytes(StandardCharsets.UTF_8), bytes);
					}
					Thread.sleep(1_000);
					int stale = 0;
					for (int key = 0; key < KEYS; key++) {
						Object held = items.near().peek("failover:items::" + key);
						if (held != null && !held.equals(new Item(key, 1))) {
							stale++;
						}
					}
					assertThat(stale).as("near entries still holding the value before the plain writes").isZero();
					for (int key = 0; key < KEYS; key++) {
						assertThat(items.get(key, Item.class)).isEqualTo(new Item(key, 1));
					}
				});
			}
			finally {
				plain.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	/** Reads every key through the tier; whether each one is now held. */
	private static boolean allHeld(NearRedisCache items) {
		boolean all = true;
		for (int key = 0; key < KEYS; key++) {
			try {
				items.get(key);
			}
			catch (RuntimeException ex) {
				return false; // the killed master's slots are not served yet
			}
			all &= items.near().peek("failover:items::" + key) != null;
		}
		return all;
	}

	private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited %s for the condition", TIMEOUT).isLessThan(deadline);
			TimeUnit.MILLISECONDS.sleep(50);
		}
	}

	/** A versioned value. */
	public record Item(int key, long version) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class ItemApp {

		@Bean
		ItemService itemService() {
			return new ItemService();
		}

	}

	public static class ItemService {

		@Cacheable("items")
		public Item item(int key) {
			return new Item(key, 0);
		}

	}

}
