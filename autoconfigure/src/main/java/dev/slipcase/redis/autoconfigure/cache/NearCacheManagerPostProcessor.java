package dev.slipcase.redis.autoconfigure.cache;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.slipcase.redis.autoconfigure.BootTrackedNodes;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * When {@code slipcase.redis.cache.near.enabled} is set, gives the application's
 * {@link RedisCacheManager} a near tier once it is initialised: the bean becomes a
 * {@link NearCacheManager} over it, whose caches named in {@code slipcase.redis.cache.near.cache-names}
 * (every cache, including those the manager creates on first use, when none is named) read
 * through a local tier, kept correct by
 * a tracking connection that Boot's Lettuce client opens to the same server, or to each master
 * of its cluster; the tracking is closed when the cache manager bean is destroyed. Any other
 * cache manager is left as it is; a {@code RedisCacheManager} with a writer of its own (not the
 * one whose puts are in Redis when they return) is refused.
 */
public final class NearCacheManagerPostProcessor implements DestructionAwareBeanPostProcessor {

	private static final String PROPERTY = "slipcase.redis.cache.near.enabled";

	private final ObjectProvider<SlipcaseRedisProperties> properties;

	private final ObjectProvider<RedisConnectionFactory> connectionFactories;

	/**
	 * The managers it started, by bean name: Spring destroys the bean it created, not the one a
	 * post-processor returned, so their tracking is closed here.
	 */
	private final Map<String, NearCacheManager> started = new ConcurrentHashMap<>();

	/**
	 * A post-processor.
	 * @param properties {@code slipcase.redis.*}, read when the cache manager is initialised
	 * @param connectionFactories the connection factory the cache manager uses
	 */
	public NearCacheManagerPostProcessor(ObjectProvider<SlipcaseRedisProperties> properties,
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		this.properties = properties;
		this.connectionFactories = connectionFactories;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof RedisCacheManager manager)) {
			return bean;
		}
		SlipcaseRedisProperties.Near near = this.properties.getObject().getCache().getNear();
		List<String> named = near.getCacheNames();
		if (named.isEmpty() && manager.getCacheNames().isEmpty() && !manager.isAllowRuntimeCacheCreation()) {
			throw new SlipcaseConfigurationException("slipcase.redis.cache.near.cache-names",
					"the cache manager '" + beanName + "' knows no cache to give a near tier and creates none",
					"name the caches in spring.cache.cache-names", null);
		}
		for (String name : named) { // created now when the manager creates caches on first use
			if (manager.getCache(name) == null) {
				throw new SlipcaseConfigurationException("slipcase.redis.cache.near.cache-names",
						"the cache manager '" + beanName + "' has no cache '" + name + "' and creates none",
						"name it in spring.cache.cache-names too, or drop it from the near tier's caches", null);
			}
		}
		LettuceConnectionFactory factory = lettuce(this.connectionFactories.getIfUnique());
		NearCacheManager nearManager = NearCacheManager.start(manager,
				named.isEmpty() ? (name) -> true : Set.copyOf(named)::contains,
				(cache) -> nearTier(cache, near, beanName), NearCacheManagerPostProcessor::putsOnTracking,
				BootTrackedNodes.of(factory), near.getHeartbeat());
		this.started.put(beanName, nearManager);
		return nearManager;
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof RedisCacheManager;
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		NearCacheManager nearManager = this.started.remove(beanName);
		if (nearManager != null) {
			nearManager.destroy();
		}
	}

	/** The near tier of {@code cache}, which must have the writer Slipcase gives Boot's cache manager. */
	private static NearCache nearTier(RedisCache cache, SlipcaseRedisProperties.Near near, String beanName) {
		requireSlipcaseWriter(cache, beanName);
		return new NearCache(cache.getName(), near.getMaximumSize(), maximumAge(near.getMaximumAge(), cache));
	}

	/**
	 * A near tier is only correct over puts that are in Redis when they return: the writer
	 * Slipcase gives Boot's cache manager while the tier is on. Spring Data's default writes
	 * asynchronously, so that a read could fetch, and store, the value a put is replacing.
	 */
	private static void requireSlipcaseWriter(RedisCache cache, String beanName) {
		if (!(cache.getNativeCache() instanceof SlipcaseCacheWriter)) {
			throw new SlipcaseConfigurationException(PROPERTY,
					"the near tier needs the cache writer Slipcase gives Boot's cache manager (puts in Redis when "
							+ "they return), and the cache manager '" + beanName + "' has another",
					"let Boot build the cache manager (customise it with a RedisCacheManagerBuilderCustomizer that "
							+ "keeps the writer), or turn the near tier off",
					null);
		}
	}

	/**
	 * Whether the puts of {@code cache} may go on the tracking connections, bypassing its writer:
	 * Slipcase's writes them as Redis acknowledges them and locks nothing, so only one that counts
	 * statistics ({@code spring.cache.redis.enable-statistics}) must see them.
	 */
	private static boolean putsOnTracking(RedisCache cache) {
		return cache.getNativeCache() instanceof SlipcaseCacheWriter writer && !writer.collectsStatistics();
	}

	private static LettuceConnectionFactory lettuce(@Nullable RedisConnectionFactory factory) {
		if (!(factory instanceof LettuceConnectionFactory lettuce)) {
			throw new SlipcaseConfigurationException(PROPERTY,
					"the near tier tracks invalidations on a Lettuce connection, and the connection factory is "
							+ ((factory != null) ? factory.getClass().getName() : "not unique"),
					"use Boot's Lettuce connection factory, or turn the near tier off", null);
		}
		return lettuce;
	}

	/** The configured maximum age, never longer than the cache's fixed time to live. */
	private static @Nullable Duration maximumAge(@Nullable Duration configured, RedisCache cache) {
		Duration ttl = fixedTtl(cache);
		if (ttl == null || ttl.isZero() || ttl.isNegative()) {
			return configured;
		}
		return (configured == null || ttl.compareTo(configured) < 0) ? ttl : configured;
	}

	private static @Nullable Duration fixedTtl(RedisCache cache) {
		try {
			return cache.getCacheConfiguration().getTtlFunction().getTimeToLive("", null);
		}
		catch (RuntimeException ex) {
			return null; // a time to live that depends on the entry: the near tier's own maximum applies
		}
	}

}
