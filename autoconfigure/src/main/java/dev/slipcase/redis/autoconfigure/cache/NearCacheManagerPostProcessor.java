package dev.slipcase.redis.autoconfigure.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.autoconfigure.BootTrackedNodes;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cache.Cache;
import org.springframework.cache.transaction.TransactionAwareCacheDecorator;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * When {@code slipcase.redis.cache.near.enabled} is set, gives the application's
 * {@link RedisCacheManager} a near tier once it is initialised: the bean becomes a
 * {@link NearCacheManager} over it, whose caches named in {@code slipcase.redis.cache.near.cache-names}
 * (every cache the manager knows, when none is named) read through a local tier, kept correct by
 * a tracking connection that Boot's Lettuce client opens to the same server, or to each master
 * of its cluster. Any other cache manager is left as it is.
 */
public final class NearCacheManagerPostProcessor implements BeanPostProcessor {

	private static final String PROPERTY = "slipcase.redis.cache.near.enabled";

	private final ObjectProvider<SlipcaseRedisProperties> properties;

	private final ObjectProvider<RedisConnectionFactory> connectionFactories;

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
		List<String> names = near.getCacheNames().isEmpty() ? new ArrayList<>(manager.getCacheNames())
				: near.getCacheNames();
		if (names.isEmpty()) {
			throw new SlipcaseConfigurationException("slipcase.redis.cache.near.cache-names",
					"the cache manager '" + beanName + "' knows no cache to give a near tier",
					"name the caches in slipcase.redis.cache.near.cache-names or spring.cache.cache-names", null);
		}
		LettuceConnectionFactory factory = lettuce(this.connectionFactories.getIfUnique());
		return NearCacheManager.start(manager, names,
				(name) -> new NearCache(name, near.getMaximumSize(), maximumAge(near.getMaximumAge(), manager, name)),
				BootTrackedNodes.of(factory), near.getHeartbeat());
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
	private static @Nullable Duration maximumAge(@Nullable Duration configured, RedisCacheManager manager, String name) {
		Duration ttl = fixedTtl(manager.getCache(name));
		if (ttl == null || ttl.isZero() || ttl.isNegative()) {
			return configured;
		}
		return (configured == null || ttl.compareTo(configured) < 0) ? ttl : configured;
	}

	private static @Nullable Duration fixedTtl(@Nullable Cache cache) {
		Cache target = (cache instanceof TransactionAwareCacheDecorator decorator) ? decorator.getTargetCache() : cache;
		if (!(target instanceof RedisCache redis)) {
			return null;
		}
		try {
			return redis.getCacheConfiguration().getTtlFunction().getTimeToLive("", null);
		}
		catch (RuntimeException ex) {
			return null; // a time to live that depends on the entry: the near tier's own maximum applies
		}
	}

}
