package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Keeps a set of {@link NearCache near caches} correct from Redis' invalidations: one tracking
 * connection ({@link KeyInvalidations}) per server that holds their keys (one server, or every
 * master of a cluster, as {@link TrackedNodes} says), on the caches' key prefixes; each reported
 * key is forgotten by the caches whose prefix it has, everything on a flush, and every cache is
 * bypassed unless tracking is trusted on every server. When the servers change (a failover, a
 * master added or removed), everything is forgotten and the caches are bypassed until the new set
 * is tracked. A tracking connection that cannot be opened (its server is down at start, say) is
 * tried again, every second at first and at most every 30 seconds. Thread-safe; {@link #close()}
 * closes the tracking connections.
 */
public final class NearCacheTracking implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(NearCacheTracking.class);

	private static final long FIRST_RETRY_MILLIS = 1_000;

	private static final long LAST_RETRY_MILLIS = 30_000;

	private final TrackedNodes nodes;

	/** The caches by key prefix; replaced, never changed, when a cache is added. */
	private volatile Map<String, List<NearCache>> cachesByPrefix;

	/** The prefixes Redis is asked to track ({@link #trackedPrefixes}); replaced with {@link #cachesByPrefix}. */
	private volatile List<String> prefixes;

	private final Duration heartbeat;

	private final ScheduledExecutorService scheduler;

	/** The servers tracked, by the name {@link TrackedNodes} gives them. Guarded by {@code this}. */
	private final Map<String, Node> tracked = new HashMap<>();

	/** A copy of {@link #tracked}, for puts to read without the lock; replaced whenever it changes. */
	private volatile Map<String, Node> trackedNow = Map.of();

	/** Tracking connections replaced or gone, closing once their writes completed. */
	private final Set<KeyInvalidations> retired = ConcurrentHashMap.newKeySet();

	/** What the caches were last told. Written holding the lock. */
	private volatile boolean trusted;

	private boolean closed;

	private NearCacheTracking(TrackedNodes nodes, Duration heartbeat) {
		this.nodes = nodes;
		this.cachesByPrefix = Map.of();
		this.prefixes = List.of();
		this.heartbeat = heartbeat;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "slipcase-near-cache-tracking");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Starts tracking the keys of {@code caches} on the one server {@code connector} connects to;
	 * the caches are bypassed until Redis tracks them.
	 * @param connector opens a connection to one server (Redis 6+ or Valkey; on RESP2 also a {@link dev.slipcase.redis.lettuce.PubSubConnector})
	 * @param caches each cache by the key prefix of its entries (an empty prefix: every key)
	 * @param heartbeat how often a tracking connection is checked, and how late its answer may be
	 * @return the tracking, started
	 */
	public static NearCacheTracking start(Connector<String, String> connector, Map<String, NearCache> caches,
			Duration heartbeat) {
		return start(TrackedNodes.of(connector), caches, heartbeat);
	}

	/**
	 * Starts tracking the keys of {@code caches} on the servers {@code nodes} names, following them
	 * as they change; the caches are bypassed until every one tracks them.
	 * @param nodes the servers that hold the caches' keys
	 * @param caches each cache by the key prefix of its entries (an empty prefix: every key); none
	 * opens no connection until one is {@link #add added}
	 * @param heartbeat how often a tracking connection is checked, and how late its answer may be;
	 * the servers are looked at again as often
	 * @return the tracking, started
	 */
	public static NearCacheTracking start(TrackedNodes nodes, Map<String, NearCache> caches, Duration heartbeat) {
		Assert.notNull(caches, "caches must not be null");
		NearCacheTracking tracking = new NearCacheTracking(nodes, heartbeat);
		tracking.follow();
		tracking.addAll(caches.entrySet());
		long millis = Math.max(1, heartbeat.toMillis());
		tracking.scheduler.scheduleWithFixedDelay(tracking::check, millis, millis, TimeUnit.MILLISECONDS);
		return tracking;
	}

	/**
	 * Keeps {@code cache} correct too, from Redis' reports of the keys under {@code prefix}. It is
	 * bypassed until they are tracked: at once when a tracked prefix covers {@code prefix}, else
	 * once every server tracks it on a new connection; meanwhile every cache is cleared and
	 * bypassed, since the connections are replaced.
	 * @param prefix the key prefix of the cache's entries (an empty prefix: every key)
	 * @param cache the cache, not yet tracked
	 */
	public void add(String prefix, NearCache cache) {
		addAll(List.of(Map.entry(prefix, cache)));
	}

	/**
	 * Keeps {@code caches} correct too, each from Redis' reports of the keys under its prefix: as
	 * {@link #add} for each, with the tracking connections replaced at most once.
	 * @param caches each cache, not yet tracked, by the key prefix of its entries
	 */
	public void addAll(Collection<? extends Map.Entry<String, NearCache>> caches) {
		if (caches.isEmpty()) {
			return;
		}
		List<Node> replaced = new ArrayList<>();
		List<Node> opening = new ArrayList<>();
		synchronized (this) {
			if (this.closed) {
				return; // bypassed for good, as every other cache
			}
			Map<String, List<NearCache>> byPrefix = new LinkedHashMap<>(this.cachesByPrefix);
			for (Map.Entry<String, NearCache> added : caches) {
				List<NearCache> sharing = new ArrayList<>(byPrefix.getOrDefault(added.getKey(), List.of()));
				sharing.add(added.getValue());
				byPrefix.put(added.getKey(), List.copyOf(sharing));
			}
			List<String> prefixes = trackedPrefixes(byPrefix.keySet());
			boolean covered = prefixes.equals(this.prefixes);
			this.cachesByPrefix = Map.copyOf(byPrefix);
			this.prefixes = prefixes;
			if (covered) {
				if (this.trusted) {
					caches.forEach((added) -> added.getValue().trackingTrusted());
				}
				return;
			}
			for (Map.Entry<String, Node> entry : this.tracked.entrySet()) {
				Node node = new Node(entry.getKey(), entry.getValue().connector);
				replaced.add(entry.getValue());
				entry.setValue(node);
				opening.add(node);
			}
			update(); // the new connections are not trusted yet: every cache is cleared and bypassed
			this.trackedNow = Map.copyOf(this.tracked);
		}
		replaced.forEach(Node::retire);
		opening.forEach((node) -> node.open(FIRST_RETRY_MILLIS));
	}

	/**
	 * The prefixes to ask Redis to track: Redis refuses two where one starts with the other, and
	 * the shorter one covers the longer one's keys.
	 */
	static List<String> trackedPrefixes(Iterable<String> prefixes) {
		List<String> sorted = new ArrayList<>();
		prefixes.forEach(sorted::add);
		sorted.sort(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
		List<String> tracked = new ArrayList<>();
		for (String prefix : sorted) {
			if (tracked.stream().noneMatch(prefix::startsWith)) {
				tracked.add(prefix);
			}
		}
		return tracked;
	}

	/**
	 * Runs every heartbeat: follows the servers when they can change, and opens again a tracking
	 * connection closed for good (with its client, when a Spring connection factory was stopped
	 * and started), which no reconnect would bring back. Never throws: that would end the schedule.
	 */
	private void check() {
		try {
			if (this.nodes.changes()) {
				follow();
			}
			List<Node> nodes;
			synchronized (this) {
				nodes = new ArrayList<>(this.tracked.values());
			}
			for (Node node : nodes) {
				node.reopenIfClosed();
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Near caches: checking the tracking connections failed (" + ex.getMessage() + ")");
		}
	}

	/** Tracks the servers {@link TrackedNodes} names now: opens the new ones, closes the gone ones. */
	private void follow() {
		Map<String, Connector<String, String>> current;
		try {
			current = this.nodes.current();
		}
		catch (RuntimeException ex) {
			logger.warn("Near caches: could not read the servers to track (" + ex.getMessage() + ")");
			return;
		}
		List<Node> opening = new ArrayList<>();
		List<Node> gone = new ArrayList<>();
		synchronized (this) {
			if (this.closed || current.keySet().equals(this.tracked.keySet())) {
				return;
			}
			boolean first = this.tracked.isEmpty();
			this.tracked.entrySet().removeIf((entry) -> {
				if (!current.containsKey(entry.getKey())) {
					gone.add(entry.getValue());
					return true;
				}
				return false;
			});
			current.forEach((name, connector) -> {
				if (!this.tracked.containsKey(name)) {
					Node node = new Node(name, connector);
					this.tracked.put(name, node);
					opening.add(node);
				}
			});
			if (!first) {
				logger.info("Near caches: the servers changed to " + current.keySet() + "; cleared until all are tracked");
				tell(false); // writes on a new master went unreported until it is tracked
			}
			update();
			this.trackedNow = Map.copyOf(this.tracked);
		}
		gone.forEach(Node::retire);
		opening.forEach((node) -> node.open(FIRST_RETRY_MILLIS));
	}

	/**
	 * The tracking connection of the server that holds {@code key}, while Redis' invalidations are
	 * trusted on every server: a write on it ({@link KeyInvalidations#write}) is reported to every
	 * other client, not to the caches here. {@code null} while they are not trusted, or when the
	 * server is not known or not tracked yet (a cluster's view of the moment).
	 * @param key the Redis key
	 */
	public @Nullable KeyInvalidations trackingOf(String key) {
		String name = this.nodes.nodeOf(key);
		if (name == null) {
			return null;
		}
		Node node = this.trusted ? this.trackedNow.get(name) : null;
		KeyInvalidations invalidations = (node != null) ? node.invalidations : null;
		return (invalidations != null && invalidations.isTracking()) ? invalidations : null;
	}

	/**
	 * {@code key} was written on a tracking connection ({@link #trackingOf}), which Redis does not
	 * report the write back to: tells each cache that would have heard of it, every one whose prefix
	 * covers the key but {@code writer}, as Redis' report would have. Called once the put returned
	 * or failed.
	 * @param key the Redis key
	 * @param writer the cache that wrote it, which knows
	 */
	public void writtenUnreported(String key, NearCache writer) {
		for (Map.Entry<String, List<NearCache>> entry : this.cachesByPrefix.entrySet()) {
			if (key.startsWith(entry.getKey())) {
				for (NearCache cache : entry.getValue()) {
					if (cache != writer) {
						cache.invalidate(key);
					}
				}
			}
		}
	}

	/** Whether Redis' invalidations are trusted on every server right now, so the caches serve values. */
	public synchronized boolean isTracking() {
		return this.trusted;
	}

	/**
	 * The ids of the tracking connections ({@code CLIENT ID}) by server, for tests and diagnostics;
	 * a server whose connection has not opened yet is left out (for a moment, one may still be
	 * left out after {@link #isTracking()} turned true: its opening completes after it reported
	 * tracking).
	 */
	public Map<String, Long> clientIds(Duration timeout) {
		List<Node> nodes;
		synchronized (this) {
			nodes = new ArrayList<>(this.tracked.values());
		}
		Map<String, Long> ids = new LinkedHashMap<>();
		for (Node node : nodes) {
			KeyInvalidations invalidations = node.invalidations;
			if (invalidations != null) {
				ids.put(node.name, invalidations.clientId(timeout));
			}
		}
		return ids;
	}

	/** The id of the tracking connection of a single server ({@code CLIENT ID}); {@code -1} before it opened. */
	public long clientId(Duration timeout) {
		return clientIds(timeout).values().stream().findFirst().orElse(-1L);
	}

	/** Stops tracking: closes the connections, and the caches stay bypassed. */
	@Override
	public void close() {
		List<Node> nodes;
		synchronized (this) {
			this.closed = true;
			nodes = new ArrayList<>(this.tracked.values());
			this.tracked.clear();
			this.trackedNow = Map.of();
			tell(false);
		}
		this.scheduler.shutdownNow();
		nodes.forEach(Node::close);
		this.retired.forEach(KeyInvalidations::close);
		this.retired.clear();
		this.nodes.close();
	}

	/** Tells the caches when whether every server is trusted changed. Called holding the lock. */
	private void update() {
		boolean now = !this.closed && !this.tracked.isEmpty()
				&& this.tracked.values().stream().allMatch((node) -> node.trusted);
		if (now != this.trusted) {
			tell(now);
		}
	}

	private void tell(boolean trusted) {
		this.trusted = trusted;
		forEachCache(trusted ? NearCache::trackingTrusted : NearCache::trackingLost);
	}

	private void forEachCache(Consumer<NearCache> action) {
		for (List<NearCache> caches : this.cachesByPrefix.values()) {
			caches.forEach(action);
		}
	}

	/** One tracked server: its tracking connection, once open, and whether it is trusted. */
	private final class Node implements KeyInvalidations.Listener {

		private final String name;

		private final Connector<String, String> connector;

		private volatile @Nullable KeyInvalidations invalidations;

		/** Guarded by the tracking's lock. */
		private boolean trusted;

		private volatile boolean closed;

		Node(String name, Connector<String, String> connector) {
			this.name = name;
			this.connector = connector;
		}

		void open(long retryMillis) {
			if (this.closed || NearCacheTracking.this.prefixes.isEmpty()) {
				return; // no cache yet: opened once one is added
			}
			CompletableFuture<KeyInvalidations> opening;
			try {
				opening = KeyInvalidations.open(this.connector, NearCacheTracking.this.prefixes, this,
						NearCacheTracking.this.heartbeat);
			}
			catch (RuntimeException ex) {
				opening = CompletableFuture.failedFuture(ex);
			}
			opening.whenComplete((opened, failure) -> {
				if (failure == null) {
					this.invalidations = opened;
					if (this.closed) {
						opened.close();
					}
					return;
				}
				if (!this.closed) {
					logger.warn("Near caches are bypassed: tracking Redis' invalidations on " + this.name + " failed ("
							+ failure.getMessage() + "); trying again in " + retryMillis + " ms");
					NearCacheTracking.this.scheduler.schedule(() -> open(Math.min(retryMillis * 2, LAST_RETRY_MILLIS)),
							retryMillis, TimeUnit.MILLISECONDS);
				}
			});
		}

		/** Opens a new tracking connection when the current one is closed for good. */
		void reopenIfClosed() {
			KeyInvalidations current = this.invalidations;
			if (this.closed || current == null || !current.isClosed()) {
				return;
			}
			this.invalidations = null;
			current.close();
			trust(false);
			logger.info("Near caches: the tracking connection to " + this.name + " was closed; opening another");
			open(FIRST_RETRY_MILLIS);
		}

		void close() {
			this.closed = true;
			KeyInvalidations current = this.invalidations;
			if (current != null) {
				current.close();
			}
		}

		/**
		 * Closes it as {@link #close()} does, but lets the puts under way on its connection complete
		 * first: it is replaced, or its server left.
		 */
		void retire() {
			this.closed = true;
			KeyInvalidations current = this.invalidations;
			if (current != null) {
				NearCacheTracking.this.retired.removeIf(KeyInvalidations::isClosed);
				NearCacheTracking.this.retired.add(current);
				current.closeWhenWritten();
				try {
					// a write nobody waits for, on a client without command timeouts, would keep it open
					NearCacheTracking.this.scheduler.schedule(current::close,
							current.timeout().plus(NearCacheTracking.this.heartbeat).toMillis(), TimeUnit.MILLISECONDS);
				}
				catch (RejectedExecutionException ex) {
					// shutting down: close() closes it
				}
			}
		}

		@Override
		public void invalidated(List<String> keys) {
			for (Map.Entry<String, List<NearCache>> entry : NearCacheTracking.this.cachesByPrefix.entrySet()) {
				String prefix = entry.getKey();
				for (String key : keys) {
					if (key.startsWith(prefix)) {
						for (NearCache cache : entry.getValue()) {
							cache.invalidate(key);
						}
					}
				}
			}
		}

		@Override
		public void flushed() {
			forEachCache(NearCache::clear);
		}

		@Override
		public void trackingLost() {
			trust(false);
		}

		@Override
		public void trackingTrusted() {
			trust(true);
		}

		private void trust(boolean trusted) {
			synchronized (NearCacheTracking.this) {
				if (this.closed) {
					return;
				}
				this.trusted = trusted;
				if (!trusted && NearCacheTracking.this.trusted) {
					tell(false);
				}
				update();
			}
		}

	}

}
