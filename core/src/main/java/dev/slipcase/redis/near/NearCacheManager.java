package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.cache.Cache;
import org.springframework.cache.transaction.TransactionAwareCacheDecorator;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.util.Assert;

/**
 * A {@link RedisCacheManager} in front of another, initialized one, whose chosen caches have a near
 * tier: each is a {@link NearRedisCache} over the same Redis entries, kept correct by tracking
 * connections ({@link NearCacheTracking}) on their key prefixes; every other cache, and everything
 * else it is asked, is the other manager's. It stays a {@code RedisCacheManager} so that what
 * injects one keeps working. A chosen cache the target creates at runtime (on its first use) gets
 * its tier then: when its key prefix is not tracked yet, every server is asked to track it on new
 * connections, and every tier is cleared and bypassed until they are. Thread-safe;
 * {@link #destroy()} closes the tracking connections (its creator calls it: Spring destroys the
 * bean it created, not one a post-processor returned).
 */
public final class NearCacheManager extends RedisCacheManager implements DisposableBean {

	private static final Log logger = LogFactory.getLog(NearCacheManager.class);

	private final RedisCacheManager target;

	private final Predicate<String> chosen;

	private final Function<RedisCache, NearCache> tiers;

	private final Predicate<RedisCache> putsOnTracking;

	/** The caches with a near tier, as handed out (decorated when the target decorates). */
	private final ConcurrentHashMap<String, Cache> nearCaches = new ConcurrentHashMap<>();

	/** The near tier of each cache in {@link #nearCaches}. */
	private final ConcurrentHashMap<String, NearCache> nearTiers = new ConcurrentHashMap<>();

	/** Told of each near tier made ({@link #forEachTier}); guarded by itself. */
	private final List<BiConsumer<String, NearCache>> tierListeners = new ArrayList<>();

	/** Caches the tier could not be made for, handed out as the target's. */
	private final Set<String> refused = ConcurrentHashMap.newKeySet();

	private final NearCacheTracking tracking;

	private NearCacheManager(RedisCacheManager target, Predicate<String> chosen, Function<RedisCache, NearCache> tiers,
			Predicate<RedisCache> putsOnTracking, TrackedNodes nodes, Duration heartbeat) {
		// its own writer and defaults are never used: every cache comes from the target
		super(UnusedCacheWriter.INSTANCE, RedisCacheConfiguration.defaultCacheConfig());
		this.target = target;
		this.chosen = chosen;
		this.tiers = tiers;
		this.putsOnTracking = putsOnTracking;
		this.tracking = NearCacheTracking.start(nodes, Map.of(), heartbeat);
	}

	/**
	 * Gives the caches {@code names} of {@code target} a near tier and starts tracking their keys.
	 * @param target the Redis cache manager, initialized
	 * @param names the caches to give a near tier, at least one
	 * @param tiers makes the near tier of each cache, by name
	 * @param connector opens the tracking connection to the server the caches use (RESP3, or
	 * RESP2 with a {@link dev.slipcase.redis.lettuce.PubSubConnector})
	 * @param heartbeat how often the tracking connection is checked, and how late its answer may be
	 * @return the manager, tracking
	 */
	public static NearCacheManager start(RedisCacheManager target, Collection<String> names,
			Function<String, NearCache> tiers, Connector<String, String> connector, Duration heartbeat) {
		Assert.notEmpty(names, "names must not be empty");
		for (String name : names) {
			Assert.notNull(target.getCache(name), () -> "the cache manager has no cache '" + name + "' and creates none");
		}
		Set<String> chosen = Set.copyOf(names);
		return start(target, chosen::contains, (cache) -> tiers.apply(cache.getName()), TrackedNodes.of(connector),
				heartbeat);
	}

	/**
	 * Gives the caches of {@code target} that {@code chosen} accepts a near tier, those it knows
	 * now at once and those it creates later on their first use, and tracks their keys on every
	 * server that holds them.
	 * @param target the Redis cache manager, initialized
	 * @param chosen whether a cache, by name, has a near tier
	 * @param tiers makes the near tier of a cache; may throw to refuse it (at start, the exception
	 * is thrown from here; for a cache created later, it is logged and the cache has no tier); must
	 * not ask this manager for a cache
	 * @param nodes the servers the caches use (one, or a cluster's masters: {@link ClusterMasters})
	 * @param heartbeat how often a tracking connection is checked, and how late its answer may be
	 * @return the manager, tracking
	 */
	public static NearCacheManager start(RedisCacheManager target, Predicate<String> chosen,
			Function<RedisCache, NearCache> tiers, TrackedNodes nodes, Duration heartbeat) {
		return start(target, chosen, tiers, (cache) -> false, nodes, heartbeat);
	}

	/**
	 * As {@link #start(RedisCacheManager, Predicate, Function, TrackedNodes, Duration)}, and the
	 * puts of each cache that {@code putsOnTracking} accepts go on the tracking connection of
	 * their key's server, bypassing the cache's writer, and hold the value put at once
	 * ({@link NearRedisCache#NearRedisCache(RedisCache, NearCache, NearCacheTracking)}).
	 * @param target the Redis cache manager, initialized
	 * @param chosen whether a cache, by name, has a near tier
	 * @param tiers makes the near tier of a cache (see the other {@code start})
	 * @param putsOnTracking whether a cache's puts may bypass its writer: only when the writer
	 * neither locks nor counts statistics, and its puts are in Redis when they return
	 * @param nodes the servers the caches use (one, or a cluster's masters: {@link ClusterMasters})
	 * @param heartbeat how often a tracking connection is checked, and how late its answer may be
	 * @return the manager, tracking
	 */
	public static NearCacheManager start(RedisCacheManager target, Predicate<String> chosen,
			Function<RedisCache, NearCache> tiers, Predicate<RedisCache> putsOnTracking, TrackedNodes nodes,
			Duration heartbeat) {
		NearCacheManager manager = new NearCacheManager(target, chosen, tiers, putsOnTracking, nodes, heartbeat);
		try {
			Map<String, Tiered> known = new LinkedHashMap<>();
			for (String name : target.getCacheNames()) {
				if (chosen.test(name)) {
					known.put(name, manager.tiered(name, target.getCache(name)));
				}
			}
			// one set of tracking connections for every cache known now
			manager.tracking.addAll(known.values().stream().map(Tiered::tracked).toList());
			known.forEach((name, tiered) -> {
				manager.nearCaches.put(name, tiered.handedOut());
				manager.published(name, tiered.near().near());
			});
		}
		catch (RuntimeException ex) {
			manager.destroy();
			throw ex;
		}
		return manager;
	}

	@Override
	public @Nullable Cache getCache(String name) {
		Cache near = this.nearCaches.get(name);
		if (near != null) {
			return near;
		}
		Cache cache = this.target.getCache(name);
		if (cache == null || !this.chosen.test(name) || this.refused.contains(name)) {
			return cache;
		}
		try {
			return withTier(name, cache);
		}
		catch (RuntimeException ex) {
			this.refused.add(name);
			logger.warn("Cache '" + name + "' has no near tier: " + ex.getMessage());
			return cache;
		}
	}

	/** The cache {@code name} with its near tier, made and tracked the first time it is asked for. */
	private Cache withTier(String name, Cache cache) {
		return this.nearCaches.computeIfAbsent(name, (key) -> {
			Tiered tiered = tiered(name, cache);
			this.tracking.add(tiered.near().keyPrefix(), tiered.near().near());
			published(name, tiered.near().near());
			return tiered.handedOut();
		});
	}

	/** {@code cache} of the target with a near tier, not tracked yet. */
	private Tiered tiered(String name, @Nullable Cache cache) {
		boolean transactional = cache instanceof TransactionAwareCacheDecorator;
		Cache redis = transactional ? ((TransactionAwareCacheDecorator) cache).getTargetCache() : cache;
		if (!(redis instanceof RedisCache redisCache)) {
			throw new IllegalArgumentException("Cache '" + name + "' is not a RedisCache: " + cache);
		}
		NearRedisCache near = new NearRedisCache(redisCache, this.tiers.apply(redisCache),
				this.putsOnTracking.test(redisCache) ? this.tracking : null);
		return new Tiered(transactional ? new TransactionAwareCacheDecorator(near) : near, near);
	}

	/** Lists a tracked tier, and tells the listeners; one that fails is logged, the others still told. */
	private void published(String name, NearCache near) {
		synchronized (this.tierListeners) {
			this.nearTiers.put(name, near);
			for (BiConsumer<String, NearCache> listener : this.tierListeners) {
				try {
					listener.accept(name, near);
				}
				catch (RuntimeException ex) {
					logger.warn("Near tier of cache '" + name + "': a listener failed (" + ex.getMessage() + ")", ex);
				}
			}
		}
	}

	/** A cache with its near tier: as handed out (decorated when the target decorates), and the near cache. */
	private record Tiered(Cache handedOut, NearRedisCache near) {

		Map.Entry<String, NearCache> tracked() {
			return Map.entry(this.near.keyPrefix(), this.near.near());
		}

	}

	@Override
	public Collection<String> getCacheNames() {
		return this.target.getCacheNames();
	}

	@Override
	public void resetCaches() {
		this.nearCaches.values().forEach(Cache::clear);
		this.target.resetCaches();
	}

	@Override
	public Map<String, RedisCacheConfiguration> getCacheConfigurations() {
		return this.target.getCacheConfigurations();
	}

	@Override
	public boolean isAllowRuntimeCacheCreation() {
		return this.target.isAllowRuntimeCacheCreation();
	}

	@Override
	public boolean isTransactionAware() {
		return this.target.isTransactionAware();
	}

	/** Nothing to load: the target manager was initialized. */
	@Override
	public void afterPropertiesSet() {
	}

	/** The Redis cache manager underneath. */
	public RedisCacheManager getTarget() {
		return this.target;
	}

	/** The near tiers, by cache name: those made so far. */
	public Map<String, NearCache> nearTiers() {
		return Collections.unmodifiableMap(this.nearTiers);
	}

	/**
	 * Calls {@code listener} with each near tier made so far, now, and with each one made later
	 * (a cache created on first use), when it is made: once per tier, as meters need.
	 * @param listener takes the cache's name and its tier; must not block
	 */
	public void forEachTier(BiConsumer<String, NearCache> listener) {
		synchronized (this.tierListeners) {
			this.tierListeners.add(listener);
			this.nearTiers.forEach(listener);
		}
	}

	/** The tracking that keeps the near tiers correct. */
	public NearCacheTracking tracking() {
		return this.tracking;
	}

	/** Stops tracking; the near tiers are bypassed from then on. */
	@Override
	public void destroy() {
		this.tracking.close();
	}

}
