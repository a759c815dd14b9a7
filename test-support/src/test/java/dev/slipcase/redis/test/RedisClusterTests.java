package dev.slipcase.redis.test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisServers}' cluster.
 */
@ExtendWith(RedisExtension.class)
class RedisClusterTests {

	@Test
	void clusterCoversEverySlot(RedisCluster cluster) {
		assertThat(cluster.clusterInfo("cluster_state")).isEqualTo("ok");
		assertThat(cluster.clusterInfo("cluster_slots_assigned")).isEqualTo("16384");
		assertThat(cluster.clusterInfo("cluster_slots_ok")).isEqualTo("16384");
		assertThat(cluster.clusterInfo("cluster_known_nodes")).isEqualTo("3");
	}

	@Test
	void clusterClientSpreadsKeysOverAllMasters(RedisCluster cluster) {
		List<RedisURI> seeds = cluster.endpoints().stream().map((e) -> RedisURI.create(e.uri())).toList();
		RedisClusterClient client = RedisClusterClient.create(seeds);
		try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
			List<RedisClusterNode> masters = connection.getPartitions()
				.stream()
				.filter((node) -> node.is(RedisClusterNode.NodeFlag.UPSTREAM))
				.toList();
			assertThat(masters).hasSize(3);
			Set<String> owners = new HashSet<>();
			for (int i = 0; i < 100; i++) {
				String key = "slipcase:cluster:" + i;
				connection.sync().set(key, Integer.toString(i));
				assertThat(connection.sync().get(key)).isEqualTo(Integer.toString(i));
				owners.add(connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(key)).getNodeId());
			}
			assertThat(owners).hasSize(3);
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void everyNodeOfAClusterWithoutReplicasIsAMaster(RedisCluster cluster) {
		assertThat(cluster.masters()).containsExactlyElementsOf(cluster.nodes());
		String id = (String) cluster.nodes().get(0).command("CLUSTER", "MYID");
		assertThatIllegalStateException().isThrownBy(() -> cluster.replicaOf(id)).withMessage("No replica of " + id);
	}

	@Test
	void everyMasterOfAClusterWithReplicasHasAReplicaOfItsOwn() {
		try (RedisCluster cluster = RedisServers.startClusterWithReplicas()) {
			List<RedisServer> masters = cluster.masters();
			assertThat(masters).hasSize(3);
			Set<RedisServer> replicas = new HashSet<>();
			for (RedisServer master : masters) {
				RedisServer replica = cluster.replicaOf((String) master.command("CLUSTER", "MYID"));
				assertThat(replica.role()).isEqualTo("slave");
				replicas.add(replica);
			}
			assertThat(replicas).hasSize(3).doesNotContainAnyElementsOf(masters);
		}
	}

	@Test
	void sharedClusterIsTheSameForEveryCaller(RedisCluster cluster) {
		assertThat(RedisServers.sharedCluster()).isSameAs(cluster);
	}

}
