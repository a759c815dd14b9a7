package dev.slipcase.redis.near;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import dev.slipcase.redis.lettuce.Connectors;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * The masters of a Redis Cluster that hold slots (failing or not), as a cluster client sees them: each tracked on a
 * connection of its own (Redis reports a key's changes only to the node that holds it). The
 * client's view is refreshed ({@code CLUSTER NODES}) every {@code refreshEvery}-th look, so that a
 * failover or a new master is noticed even when the application's own commands do not run into
 * it. Connections are opened by a standalone client sharing the cluster client's resources and
 * options, with the credentials and TLS setting of {@code template}. Thread-safe; {@link #close()} shuts that
 * client down.
 */
public final class ClusterMasters implements TrackedNodes {

	private final RedisClusterClient cluster;

	private final RedisClient client;

	private final RedisURI template;

	private final int refreshEvery;

	private final AtomicInteger looks = new AtomicInteger();

	/**
	 * The masters of the cluster {@code cluster} connects to.
	 * @param cluster the application's cluster client
	 * @param template credentials, TLS and timeouts for the connections to each master (its host
	 * and port are replaced)
	 * @param refreshEvery refresh the cluster's view every so many looks; {@code 1} refreshes on
	 * every look
	 */
	public ClusterMasters(RedisClusterClient cluster, RedisURI template, int refreshEvery) {
		this.cluster = cluster;
		this.client = RedisClient.create(cluster.getResources());
		this.client.setOptions(cluster.getOptions()); // TLS, protocol and timeouts as the application set them
		this.template = template;
		this.refreshEvery = Math.max(1, refreshEvery);
	}

	@Override
	public Map<String, Connector<String, String>> current() {
		if (this.looks.getAndIncrement() % this.refreshEvery == 0) {
			this.cluster.refreshPartitions();
		}
		Partitions partitions = this.cluster.getPartitions();
		Map<String, Connector<String, String>> masters = new LinkedHashMap<>();
		for (RedisClusterNode node : partitions) {
			if (isServingMaster(node)) {
				RedisURI uri = RedisURI.builder(this.template)
					.withHost(node.getUri().getHost())
					.withPort(node.getUri().getPort())
					.build();
				masters.put(name(node), Connectors.of(this.client, uri, StringCodec.UTF8));
			}
		}
		return masters;
	}

	/** The master of {@code key}'s slot in the client's view, without refreshing it. */
	@Override
	public @Nullable String nodeOf(String key) {
		RedisClusterNode master = this.cluster.getPartitions()
			.getMasterBySlot(SlotHash.getSlot(key.getBytes(StandardCharsets.UTF_8)));
		return (master != null && isServingMaster(master)) ? name(master) : null;
	}

	/** A master's name: changes when another server takes its place. */
	private static String name(RedisClusterNode node) {
		return node.getNodeId() + "@" + node.getUri().getHost() + ":" + node.getUri().getPort();
	}

	/**
	 * A master that holds slots, failing or not: one suspected down may still take writes, and one
	 * down fails its tracking, which keeps the tier bypassed until its slots have a new master.
	 */
	private static boolean isServingMaster(RedisClusterNode node) {
		return (node.is(NodeFlag.UPSTREAM) || node.is(NodeFlag.MASTER)) && !node.getSlots().isEmpty();
	}

	@Override
	public boolean changes() {
		return true;
	}

	@Override
	public void close() {
		this.client.shutdownAsync(0, 2, TimeUnit.SECONDS);
	}

}
