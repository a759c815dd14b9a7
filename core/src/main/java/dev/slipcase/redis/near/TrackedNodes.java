package dev.slipcase.redis.near;

import java.util.Map;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import org.jspecify.annotations.Nullable;

/**
 * The servers whose invalidations a {@link NearCacheTracking} must hear: every server that holds
 * keys of its caches, each with a way to open a connection to it. One server, or the masters of a
 * Redis Cluster ({@link ClusterMasters}). Closed with the tracking.
 */
public interface TrackedNodes extends AutoCloseable {

	/** The name of the one server of {@link #of}. */
	String SERVER = "server";

	/**
	 * The servers now, by a name that changes when the server does (a new master after a
	 * failover has a new name), each with a connector to it.
	 */
	Map<String, Connector<String, String>> current();

	/**
	 * The name in {@link #current()} of the server that holds {@code key} now, or {@code null}
	 * when that is not known (the default).
	 */
	default @Nullable String nodeOf(String key) {
		return null;
	}

	/** Whether the servers can change, so that {@link #current()} is asked again now and then. */
	default boolean changes() {
		return false;
	}

	/** Releases what it opened; the connections it handed out are closed by their users. */
	@Override
	default void close() {
	}

	/** One server, for ever. */
	static TrackedNodes of(Connector<String, String> connector) {
		return new TrackedNodes() {

			@Override
			public Map<String, Connector<String, String>> current() {
				return Map.of(SERVER, connector);
			}

			@Override
			public String nodeOf(String key) {
				return SERVER;
			}

		};
	}

}
