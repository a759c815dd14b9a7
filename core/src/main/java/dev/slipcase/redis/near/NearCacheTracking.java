package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import dev.slipcase.redis.lettuce.KeyInvalidations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Keeps a set of {@link NearCache near caches} correct from one Redis server's invalidations: one
 * tracking connection ({@link KeyInvalidations}) on the caches' key prefixes, each reported key
 * forgotten by the caches whose prefix it has, everything forgotten on a flush, and every cache
 * bypassed while tracking is not trusted. When the tracking connection cannot be opened (Redis is
 * down at start, say), the caches stay bypassed and it tries again, every second at first and at
 * most every 30 seconds. Thread-safe; {@link #close()} closes the tracking connection.
 */
public final class NearCacheTracking implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(NearCacheTracking.class);

	private static final long FIRST_RETRY_MILLIS = 1_000;

	private static final long LAST_RETRY_MILLIS = 30_000;

	private final Connector<String, String> connector;

	private final Map<String, List<NearCache>> cachesByPrefix;

	private final Duration heartbeat;

	private final ScheduledExecutorService retries;

	private volatile @Nullable KeyInvalidations invalidations;

	private volatile boolean closed;

	private NearCacheTracking(Connector<String, String> connector, Map<String, List<NearCache>> cachesByPrefix,
			Duration heartbeat) {
		this.connector = connector;
		this.cachesByPrefix = cachesByPrefix;
		this.heartbeat = heartbeat;
		this.retries = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "slipcase-near-cache-tracking");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Starts tracking the keys of {@code caches} on the server {@code connector} connects to; the
	 * caches are bypassed until Redis tracks them.
	 * @param connector opens a connection to one server (RESP3: Redis 6+ or Valkey)
	 * @param caches each cache by the key prefix of its entries (an empty prefix: every key)
	 * @param heartbeat how often the tracking connection is checked, and how late its answer may be
	 * @return the tracking, started
	 */
	public static NearCacheTracking start(Connector<String, String> connector, Map<String, NearCache> caches,
			Duration heartbeat) {
		Assert.notEmpty(caches, "caches must not be empty");
		Map<String, List<NearCache>> byPrefix = new LinkedHashMap<>();
		caches.forEach((prefix, cache) -> byPrefix.computeIfAbsent(prefix, (p) -> new ArrayList<>()).add(cache));
		NearCacheTracking tracking = new NearCacheTracking(connector, byPrefix, heartbeat);
		tracking.open(FIRST_RETRY_MILLIS);
		return tracking;
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

	private void open(long retryMillis) {
		if (this.closed) {
			return;
		}
		CompletableFuture<KeyInvalidations> opening;
		try {
			opening = KeyInvalidations.open(this.connector, trackedPrefixes(this.cachesByPrefix.keySet()),
					new Dispatcher(), this.heartbeat);
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
				logger.warn("Near caches are bypassed: tracking Redis' invalidations failed (" + failure.getMessage()
						+ "); trying again in " + retryMillis + " ms");
				this.retries.schedule(() -> open(Math.min(retryMillis * 2, LAST_RETRY_MILLIS)), retryMillis,
						TimeUnit.MILLISECONDS);
			}
		});
	}

	/** Whether Redis' invalidations are trusted right now, so the caches serve values. */
	public boolean isTracking() {
		KeyInvalidations current = this.invalidations;
		return current != null && current.isTracking();
	}

	/** The id of the tracking connection ({@code CLIENT ID}), for tests and diagnostics; {@code -1} before it opened. */
	public long clientId(Duration timeout) {
		KeyInvalidations current = this.invalidations;
		return (current != null) ? current.clientId(timeout) : -1;
	}

	/** Stops tracking: closes the connection, and the caches stay bypassed. */
	@Override
	public void close() {
		this.closed = true;
		this.retries.shutdownNow();
		KeyInvalidations current = this.invalidations;
		if (current != null) {
			current.close();
		}
		forEachCache(NearCache::trackingLost);
	}

	private void forEachCache(java.util.function.Consumer<NearCache> action) {
		for (List<NearCache> caches : this.cachesByPrefix.values()) {
			caches.forEach(action);
		}
	}

	/** Hands what Redis reports to the caches it concerns. */
	private final class Dispatcher implements KeyInvalidations.Listener {

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
			forEachCache(NearCache::trackingLost);
		}

		@Override
		public void trackingTrusted() {
			if (!NearCacheTracking.this.closed) {
				forEachCache(NearCache::trackingTrusted);
			}
		}

	}

}
