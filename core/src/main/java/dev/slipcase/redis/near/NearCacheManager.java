package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.cache.Cache;
import org.springframework.cache.transaction.TransactionAwareCacheDecorator;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.util.Assert;

/**
 * A {@link RedisCacheManager} in front of another, initialized one, whose named caches have a near
 * tier: each is a {@link NearRedisCache} over the same Redis entries, kept correct by one tracking
 * connection ({@link NearCacheTracking}) on their key prefixes; every other cache, and everything
 * else it is asked, is the other manager's. It stays a {@code RedisCacheManager} so that what
 * injects one keeps working. Which caches have a near tier is decided when it starts: a cache
 * created later has none. Thread-safe; {@link #destroy()} closes the tracking connection (its
 * creator calls it: Spring destroys the bean it created, not one a post-processor returned).
 */
public final class NearCacheManager extends RedisCacheManager implements DisposableBean {

	private final RedisCacheManager target;

	private final Map<String, Cache> nearCaches;

	private final NearCacheTracking tracking;

	private NearCacheManager(RedisCacheManager target, RedisCache any, Map<String, Cache> nearCaches,
			NearCacheTracking tracking) {
		// the writer and defaults only satisfy the constructor: every cache comes from the target
		super(any.getNativeCache(), any.getCacheConfiguration());
		this.target = target;
		this.nearCaches = nearCaches;
		this.tracking = tracking;
	}

	/**
	 * Gives the caches {@code names} of {@code target} a near tier and starts tracking their keys.
	 * @param target the Redis cache manager, initialized
	 * @param names the caches to give a near tier, at least one
	 * @param tiers makes the near tier of each cache, by name
	 * @param connector opens the tracking connection to the server the caches use (RESP3, or RESP2 with a {@link dev.slipcase.redis.lettuce.PubSubConnector})
	 * @param heartbeat how often the tracking connection is checked, and how late its answer may be
	 * @return the manager, tracking
	 */
	public static NearCacheManager start(RedisCacheManager target, Collection<String> names,
			Function<String, NearCache> tiers, Connector<String, String> connector, Duration heartbeat) {
		return start(target, names, tiers, TrackedNodes.of(connector), heartbeat);
	}

	/**
	 * Gives the caches {@code names} of {@code target} a near tier and starts tracking their keys
	 * on every server that holds them.
	 * @param target the Redis cache manager, initialized
	 * @param names the caches to give a near tier, at least one
	 * @param tiers makes the near tier of each cache, by name
	 * @param nodes the servers the caches use (one, or a cluster's masters: {@link ClusterMasters})
	 * @param heartbeat how often a tracking connection is checked, and how late its answer may be
	 * @return the manager, tracking
	 */
	public static NearCacheManager start(RedisCacheManager target, Collection<String> names,
			Function<String, NearCache> tiers, TrackedNodes nodes, Duration heartbeat) {
		Assert.notEmpty(names, "names must not be empty");
		Map<String, Cache> caches = new LinkedHashMap<>();
		Map<String, NearCache> byPrefix = new LinkedHashMap<>();
		RedisCache any = null;
		for (String name : names) {
			Cache cache = target.getCache(name);
			boolean transactional = cache instanceof TransactionAwareCacheDecorator;
			Cache redis = transactional ? ((TransactionAwareCacheDecorator) cache).getTargetCache() : cache;
			if (!(redis instanceof RedisCache redisCache)) {
				throw new IllegalArgumentException("Cache '" + name + "' is not a RedisCache: " + cache);
			}
			any = redisCache;
			NearRedisCache near = new NearRedisCache(redisCache, tiers.apply(name));
			caches.put(name, transactional ? new TransactionAwareCacheDecorator(near) : near);
			byPrefix.put(near.keyPrefix(), near.near());
		}
		return new NearCacheManager(target, any, Map.copyOf(caches),
				NearCacheTracking.start(nodes, byPrefix, heartbeat));
	}

	@Override
	public @Nullable Cache getCache(String name) {
		Cache near = this.nearCaches.get(name);
		return (near != null) ? near : this.target.getCache(name);
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

	/** The near tiers, by cache name. */
	public Map<String, NearCache> nearTiers() {
		Map<String, NearCache> tiers = new LinkedHashMap<>();
		this.nearCaches.forEach((name, cache) -> tiers.put(name, nearOf(cache).near()));
		return tiers;
	}

	private static NearRedisCache nearOf(Cache cache) {
		return (NearRedisCache) ((cache instanceof TransactionAwareCacheDecorator decorator) ? decorator.getTargetCache()
				: cache);
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
