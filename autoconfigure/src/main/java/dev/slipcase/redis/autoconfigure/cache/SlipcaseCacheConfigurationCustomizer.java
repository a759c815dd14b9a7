package dev.slipcase.redis.autoconfigure.cache;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.cache.RedisCacheConfiguration;

/**
 * Customizes a cache configuration after Slipcase has set its value serializer and the
 * {@code slipcase.redis.cache.caches.<name>.*} settings. Customizers run in {@code @Order}.
 */
@FunctionalInterface
public interface SlipcaseCacheConfigurationCustomizer {

	/**
	 * The configuration to use.
	 * @param cacheName the cache's name, or {@code null} for the defaults of every other cache
	 * @param configuration the configuration so far, never {@code null}
	 * @return the configuration, never {@code null}
	 */
	RedisCacheConfiguration customize(@Nullable String cacheName, RedisCacheConfiguration configuration);

}
