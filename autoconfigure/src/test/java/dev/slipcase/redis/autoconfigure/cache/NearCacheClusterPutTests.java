package dev.slipcase.redis.autoconfigure.cache;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.near.NearRedisCache;
import dev.slipcase.redis.test.InfoField;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A near tier's put on a real 3-master cluster goes on the tracking connection of the master that
 * holds its key's slot in the client's view; when the slot has moved since, that master answers
 * {@code MOVED} (the write was not applied), and the put goes through the cache's writer instead,
 * which follows the redirection.
 */
class NearCacheClusterPutTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String KEY = "moved:items::1";

	@Test
	void aPutWhoseSlotMovedIsRefusedByTheOldMasterAndGoesThroughTheWriter() throws Exception {
		try (RedisCluster cluster = RedisServers.startCluster()) {
			String nodes = String.join(",",
					cluster.endpoints().stream().map((endpoint) -> endpoint.host() + ":" + endpoint.port()).toList());
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
						SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
				.withUserConfiguration(CachingApp.class)
				// a long heartbeat: the tracking does not look at the cluster again during the test
				.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes, "spring.cache.type=redis",
						"spring.cache.cache-names=items", "spring.cache.redis.key-prefix=moved:",
						"slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.heartbeat=20s");
			runner.run((context) -> {
				NearCacheManager manager = (NearCacheManager) context.getBean(CacheManager.class);
				NearRedisCache items = (NearRedisCache) manager.getCache("items");
				// each connection is listed (puts go on it) a moment after it reported tracking
				Wait.until(TIMEOUT, () -> items.near().isTrusted()
						&& manager.tracking().clientIds(Duration.ofSeconds(5)).size() == 3);

				// a put where the client's view is right: held at once, as on one server
				items.put(2, "two");
				assertThat(items.near().peek("moved:items::2")).isEqualTo("two");

				int slot = SlotHash.getSlot(KEY.getBytes(StandardCharsets.UTF_8));
				RedisServer owner = cluster.masterOf(slot);
				RedisServer heir = cluster.masters().stream().filter((node) -> node != owner).findFirst().orElseThrow();
				String heirId = (String) heir.command("CLUSTER", "MYID");
				heir.command("CLUSTER", "BUMPEPOCH");
				for (RedisServer node : cluster.masters()) {
					node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", heirId);
				}
				Wait.until(TIMEOUT, () -> cluster.masterOf(slot) == heir);

				long refused = rejectedSets(owner);
				items.put(1, "one");
				// the tier's, on the old master's tracking connection, then the writer's, whose cluster
				// connection shares the stale view and follows the redirection to the new master
				assertThat(rejectedSets(owner)).as("SETs the old master refused with MOVED").isEqualTo(refused + 2);
				assertThat(items.near().peek(KEY)).as("what the writer put is not held").isNull();
				assertThat(heir.command("EXISTS", KEY)).isEqualTo(1L);
				assertThat(owner.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))).isEqualTo(0L);
				assertThat(items.get(1, String.class)).isEqualTo("one");
			});
		}
	}

	/** The {@code SET}s {@code node} refused ({@code rejected_calls}: a redirection is one). */
	private static long rejectedSets(RedisServer node) {
		String stats = (String) node.command("INFO", "commandstats");
		String set = InfoField.read(stats, "cmdstat_set");
		for (String field : set.split(",")) {
			if (field.startsWith("rejected_calls=")) {
				return Long.parseLong(field.substring("rejected_calls=".length()));
			}
		}
		return 0;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class CachingApp {

	}

}
