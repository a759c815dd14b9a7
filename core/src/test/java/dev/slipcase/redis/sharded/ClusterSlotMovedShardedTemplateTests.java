package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.StringRedisSerializer;

import dev.slipcase.redis.test.InfoField;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bucket's slot moves to another master behind the client's back (its topology is not refreshed):
 * the write's {@code MULTI} block goes to the old master, which refuses it ({@code MOVED} queued,
 * {@code EXECABORT}), and that block alone is written again through the script, which the cluster
 * connection redirects; the block of the bucket that did not move is written once.
 */
class ClusterSlotMovedShardedTemplateTests {

	@Test
	void aBlockWhoseSlotMovedIsWrittenAgainThroughTheScriptAlone() {
		try (RedisCluster cluster = RedisServers.startCluster()) {
			List<RedisURI> seeds = cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList();
			RedisClusterClient client = RedisClusterClient.create(seeds);
			try (ShardedTemplates templates = ShardedTemplates.create(client)) {
				ShardedTemplate<String> template = templates.template(
						ShardedNamespace.builder("moved").alias("m").keyPrefix("k:").build(), StringRedisSerializer.UTF_8);
				int bucketSize = template.layout().bucketSize();
				String moving = "k:1";
				String staying = "k:" + (bucketSize * 3 + 1);
				template.multiSet(Map.of(moving, "before", staying, "before"));
				String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
				int slot = SlotHash.getSlot(bucket);
				RedisServer from = cluster.masterOf(slot);
				RedisServer to = cluster.nodes().stream().filter((node) -> node != from).findFirst().orElseThrow();
				moveSlot(cluster, slot, from, to);
				cluster.nodes().forEach((node) -> node.command("CONFIG", "RESETSTAT"));

				Map<String, String> values = new LinkedHashMap<>();
				values.put(moving, "after");
				values.put(staying, "after");
				template.multiSet(values);
				template.set(moving, "again");

				assertThat(template.multiGet(List.of(moving, staying))).containsExactly("again", "after");
				assertThat((String) from.command("INFO", "errorstats")).contains("errorstat_EXECABORT");
				assertThat((String) to.command("INFO", "commandstats")).contains("cmdstat_evalsha");
				long execs = 0;
				for (RedisServer node : cluster.nodes()) {
					String stats = (String) node.command("INFO", "commandstats");
					execs += stats.lines().filter((line) -> line.startsWith("cmdstat_exec:")).count();
				}
				assertThat(execs).as("the staying bucket's block ran as a transaction").isPositive();
			}
			finally {
				client.shutdown();
			}
		}
	}

	/** Moves one slot and its keys as {@code redis-cli --cluster reshard} does, one command at a time. */
	private static void moveSlot(RedisCluster cluster, int slot, RedisServer from, RedisServer to) {
		String fromId = (String) from.command("CLUSTER", "MYID");
		String toId = (String) to.command("CLUSTER", "MYID");
		to.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", fromId);
		from.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", toId);
		@SuppressWarnings("unchecked")
		List<Object> keys = (List<Object>) from.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "1000");
		if (!keys.isEmpty()) {
			List<String> migrate = new ArrayList<>(List.of("MIGRATE", to.endpoint().host(),
					Integer.toString(to.endpoint().port()), "", "0", "5000", "KEYS"));
			keys.forEach((key) -> migrate.add(String.valueOf(key)));
			from.command(migrate.toArray(String[]::new));
		}
		for (RedisServer node : cluster.nodes()) {
			node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", toId);
		}
		assertThat(InfoField.read((String) to.command("CLUSTER", "INFO"), "cluster_state")).isEqualTo("ok");
	}

}
