package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/** The template against the real local three-master cluster. */
class ClusterShardedTemplateTests extends ShardedTemplateContract {

	private RedisClusterClient client;

	private StatefulRedisClusterConnection<String, String> connection;

	private ShardedTemplates templates;

	@BeforeAll
	void connect() {
		RedisCluster cluster = RedisServers.sharedCluster();
		List<RedisURI> seeds = cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList();
		this.client = RedisClusterClient.create(seeds);
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void disconnect() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
	}

	@Override
	ShardedTemplates templates() {
		return this.templates;
	}

	@Override
	ShardedTemplates newTemplates() {
		return ShardedTemplates.create(this.client);
	}

	@Override
	RedisClusterCommands<String, String> redis() {
		return this.connection.sync();
	}

	@Test
	void bucketsSpreadOverTheNodesAndBatchesCrossSlots() {
		ShardedTemplate<String> template = template(namespace().bucketSize(10).build(), STRINGS);
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 0; i < 1000; i++) {
			values.put(key(template, i), "v" + i);
		}
		template.multiSet(values);
		Set<Integer> slots = new HashSet<>();
		for (int bucket = 0; bucket < 100; bucket++) {
			slots.add(SlotHash.getSlot(template.namespace().ownedKeyPrefix() + "n:" + bucket + "}"));
		}
		Set<String> nodes = new HashSet<>();
		for (int slot : slots) {
			nodes.add(this.connection.getPartitions().getPartitionBySlot(slot).getNodeId());
		}
		assertThat(nodes).hasSize(3);
		List<String> keys = new ArrayList<>(values.keySet());
		Collections.reverse(keys);
		assertThat(template.multiGet(keys)).containsExactlyElementsOf(keys.stream().map(values::get).toList());
	}

}
