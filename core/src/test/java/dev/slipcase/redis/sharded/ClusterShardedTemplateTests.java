package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The template against the real local three-master cluster, on a client of the resources Slipcase's
 * starter gives Boot's client, whose node connections send each MULTI block as one command.
 */
class ClusterShardedTemplateTests extends ShardedTemplateContract {

	private final List<String> dispatched = new CopyOnWriteArrayList<>();

	private ClientResources resources;

	private RedisClusterClient client;

	private StatefulRedisClusterConnection<String, String> connection;

	private ShardedTemplates templates;

	@BeforeAll
	void connect() {
		RedisCluster cluster = RedisServers.sharedCluster();
		List<RedisURI> seeds = cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList();
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		this.client = RedisClusterClient.create(this.resources, seeds);
		this.client.addListener(new CommandListener() {

			@Override
			public void commandStarted(CommandStartedEvent event) {
				ClusterShardedTemplateTests.this.dispatched.add(event.getCommand().getType().toString());
			}

		});
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void disconnect() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
		this.resources.shutdown();
	}

	@Test
	void aSetOfANumericIdGoesToItsNodeAsOneCommand() {
		ShardedTemplate<String> template = templates().template(
				ShardedNamespace.builder("one-command").alias("oc").keyPrefix("oc:").build(), STRINGS);
		template.set("oc:1", "warm-up"); // the lane's node connection is open
		this.dispatched.clear();
		template.set("oc:1", "value");
		assertThat(this.dispatched).as("the commands the set dispatched")
			.hasSize(1)
			.allMatch((type) -> type.startsWith("BLOCK"));
		assertThat(template.get("oc:1")).isEqualTo("value");
	}

	@Test
	void aMultiGetReadsTheBucketsOfEachMasterAsOneCommand() {
		ShardedTemplate<String> template = templates().template(
				ShardedNamespace.builder("one-read-per-node").alias("or").keyPrefix("or:").bucketSize(10).build(), STRINGS);
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 0; i < 300; i++) {
			values.put("or:" + i, "v" + i);
		}
		template.multiSet(values);
		List<String> keys = new ArrayList<>(values.keySet());
		assertThat(template.multiGet(keys)).containsExactlyElementsOf(values.values()); // node connections are open
		this.dispatched.clear();
		assertThat(template.multiGet(keys)).containsExactlyElementsOf(values.values());
		assertThat(this.dispatched).as("the commands the multiGet dispatched")
			.hasSize(3)
			.allMatch((type) -> type.startsWith("READS"));
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
