package dev.slipcase.redis.test;

import java.util.ArrayList;
import java.util.List;

/**
 * A real Redis Cluster of three masters, with or without a replica each, and all 16384 slots
 * assigned: one the fixture started from local {@code redis-server} processes, or an external one
 * named by {@code SLIPCASE_REDIS_CLUSTER_URL}. Closing a cluster the fixture started stops every node.
 */
public interface RedisCluster extends AutoCloseable {

	/** The nodes, never empty; any of them is a valid seed for a cluster client. */
	List<RedisServer> nodes();

	/** The nodes' endpoints, in the same order as {@link #nodes()}. */
	default List<RedisEndpoint> endpoints() {
		return nodes().stream().map(RedisServer::endpoint).toList();
	}

	/** Removes every key from every node. */
	default void flushAll() {
		nodes().forEach(RedisServer::flushAll);
	}

	/** The {@code CLUSTER INFO} field of the first node, e.g. {@code cluster_slots_ok}. */
	default String clusterInfo(String field) {
		return InfoField.read((String) nodes().get(0).command("CLUSTER", "INFO"), field);
	}

	/**
	 * The running nodes that are masters now ({@code role:master}), in the order of {@link #nodes()};
	 * after a failover, the promoted replica instead of the master it replaced.
	 */
	default List<RedisServer> masters() {
		List<RedisServer> masters = new ArrayList<>();
		for (RedisServer node : nodes()) {
			if (node.isRunning() && "master".equals(node.role())) {
				masters.add(node);
			}
		}
		return masters;
	}

	/**
	 * The running master that says it holds {@code slot}: the slot ranges of its own line of
	 * {@code CLUSTER NODES} (a slot being imported or migrated, in brackets, is not held).
	 */
	default RedisServer masterOf(int slot) {
		for (RedisServer node : masters()) {
			String myself = ((String) node.command("CLUSTER", "NODES")).lines()
				.filter((line) -> line.contains("myself"))
				.findFirst()
				.orElseThrow();
			String[] fields = myself.split(" ");
			for (int i = 8; i < fields.length; i++) {
				if (fields[i].startsWith("[")) {
					continue;
				}
				int dash = fields[i].indexOf('-');
				int from = Integer.parseInt((dash < 0) ? fields[i] : fields[i].substring(0, dash));
				int to = (dash < 0) ? from : Integer.parseInt(fields[i].substring(dash + 1));
				if (slot >= from && slot <= to) {
					return node;
				}
			}
		}
		throw new IllegalStateException("No master holds slot " + slot);
	}

	/**
	 * The running node that replicates the master whose node id is {@code masterId}.
	 * @param masterId the master's node id ({@code CLUSTER MYID}), which may be down by now
	 * @throws IllegalStateException when no running node replicates it
	 */
	default RedisServer replicaOf(String masterId) {
		for (RedisServer node : nodes()) {
			if (node.isRunning()) {
				String myself = ((String) node.command("CLUSTER", "NODES")).lines()
					.filter((line) -> line.contains("myself"))
					.findFirst()
					.orElseThrow();
				if (myself.contains("slave " + masterId)) {
					return node;
				}
			}
		}
		throw new IllegalStateException("No replica of " + masterId);
	}

	/**
	 * Moves {@code slots} slots from one master to another with {@code redis-cli --cluster reshard},
	 * keys included, and waits until every node agrees again.
	 * @param from the node id of the master giving slots ({@code CLUSTER MYID})
	 * @param to the node id of the master taking them
	 * @throws UnsupportedOperationException for a cluster the fixture did not start
	 */
	default void reshard(String from, String to, int slots) {
		reshard(from, to, slots, 10);
	}

	/**
	 * Moves slots as {@link #reshard(String, String, int)} does, {@code keysPerMigrate} keys per
	 * {@code MIGRATE} ({@code --cluster-pipeline}, 10 by default): fewer make the move take longer.
	 * @throws UnsupportedOperationException for a cluster the fixture did not start
	 */
	default void reshard(String from, String to, int slots, int keysPerMigrate) {
		throw new UnsupportedOperationException("Only a cluster the fixture started can be resharded");
	}

	/** Waits until every running node sees {@code cluster_state:ok} with all slots covered. */
	default void awaitHealthy() {
		throw new UnsupportedOperationException("Only a cluster the fixture started can be watched");
	}

	@Override
	void close();

}
