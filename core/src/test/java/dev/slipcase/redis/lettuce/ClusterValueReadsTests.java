package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests {@link ValueReads} on a real three-master cluster where its reads go out as one command per
 * node: they keep their order with writes sent before them while Lettuce's view of a moved slot is
 * half refreshed, and a closed connection fails them rather than throwing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterValueReadsTests {

	private RedisCluster cluster;

	private ClientResources resources;

	private RedisClusterClient client;

	@BeforeAll
	void start() {
		this.cluster = RedisServers.startCluster();
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		List<RedisURI> seeds = this.cluster.endpoints().stream().map((e) -> RedisURI.create(e.uri())).toList();
		this.client = RedisClusterClient.create(this.resources, seeds);
	}

	@AfterAll
	void stop() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		this.cluster.close();
	}

	private static byte[] bytes(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}

	private static String string(byte[] b) {
		return (b != null) ? new String(b, StandardCharsets.UTF_8) : null;
	}

	private CompletableFuture<List<byte[]>> read(CommandChannel<byte[], byte[]> channel, byte[] key) {
		ValueReads reads = ValueReads.of(1, 1);
		reads.get(key, 0);
		return reads.send(channel);
	}

	@Test
	void readsOnAClosedClusterConnectionFailTheirFutureLikeAnyCommand() throws Exception {
		StatefulRedisClusterConnection<byte[], byte[]> connection = this.client.connect(ByteArrayCodec.INSTANCE);
		CommandChannel<byte[], byte[]> channel = new CommandChannel<>(
				ConnectionHolder.borrowing(connection, ByteArrayCodec.INSTANCE), 0, Duration.ofSeconds(5));
		channel.call(BinaryCommands.set(bytes("a"), bytes("1"), 0), "set", "a");
		assertThat(string(read(channel, bytes("a")).get(5, TimeUnit.SECONDS).get(0))).isEqualTo("1");
		connection.close();
		CompletableFuture<List<byte[]>> values = read(channel, bytes("a"));
		assertThat(values.handle((value, failure) -> failure).get(5, TimeUnit.SECONDS)).isNotNull();
	}

	/**
	 * The slot moved; Lettuce's partitions are reloaded in place, as its refresh does first, while
	 * the cluster connection still writes the slot to the old master: a SET sent before the read goes
	 * there, is redirected and goes to the new master, and the read must not reach it first.
	 */
	@Test
	void readsKeepTheirOrderWithAWriteSentBeforeThemWhileAMovedSlotIsHalfRefreshed() throws Exception {
		StatefulRedisClusterConnection<byte[], byte[]> connection = this.client.connect(ByteArrayCodec.INSTANCE);
		try {
			CommandChannel<byte[], byte[]> channel = new CommandChannel<>(
					ConnectionHolder.borrowing(connection, ByteArrayCodec.INSTANCE), 0, Duration.ofSeconds(5));
			String key = "{moved}k";
			int slot = SlotHash.getSlot(key);
			RedisServer from = this.cluster.masterOf(slot);
			RedisServer to = this.cluster.masters().stream().filter((n) -> n != from).findFirst().orElseThrow();
			channel.call(BinaryCommands.set(bytes(key), bytes("v0"), 0), "set", key); // writers[slot] = from
			// open the node connections of every master, so that sendByNode takes its path
			for (int i = 0; i < 200; i++) {
				channel.call(BinaryCommands.set(bytes("warm" + i), bytes("x"), 0), "set", "warm");
				read(channel, bytes("warm" + i)).get(5, TimeUnit.SECONDS);
			}
			// move the slot, keys included, to 'to' on every node
			String fromId = (String) from.command("CLUSTER", "MYID");
			String toId = (String) to.command("CLUSTER", "MYID");
			to.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", fromId);
			from.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", toId);
			assertThat(from.command("MIGRATE", to.endpoint().host(), Integer.toString(to.endpoint().port()), key, "0",
					"5000")).isEqualTo("OK");
			for (RedisServer node : this.cluster.nodes()) {
				node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", toId);
			}
			// the first half of a topology refresh: partitions reloaded in place, writer cache not reset yet
			Partitions fresh = ClusterPartitionParser.parse((String) to.command("CLUSTER", "NODES"));
			connection.getPartitions().reload(fresh.getPartitions());
			assertThat(connection.getPartitions().getMasterBySlot(slot).getUri().getPort())
				.isEqualTo(to.endpoint().port());

			List<String> seen = new ArrayList<>();
			for (int i = 1; i <= 20; i++) {
				channel.submit(BinaryCommands.set(bytes(key), bytes("v" + i), 0)); // not waited for
				seen.add(string(read(channel, bytes(key)).get(5, TimeUnit.SECONDS).get(0)));
			}
			List<String> written = new ArrayList<>();
			for (int i = 1; i <= 20; i++) {
				written.add("v" + i);
			}
			assertThat(seen).as("what each read found of the SET sent just before it").isEqualTo(written);
		}
		finally {
			connection.close();
		}
	}

}
