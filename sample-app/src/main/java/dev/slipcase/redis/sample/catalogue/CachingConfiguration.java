package dev.slipcase.redis.sample.catalogue;

import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Turns Spring's caching on. Nothing here is Slipcase's: the starter makes Boot's Redis cache
 * manager store values with Slipcase, and each cache's format comes from
 * {@code slipcase.redis.cache.caches.*}. The one change to Boot's cache manager is Spring Data
 * Redis's {@code immediateWrites()}: a value is in Redis when the cached method returns (Spring
 * Data Redis 4 otherwise writes cache entries asynchronously), so the next read hits the cache.
 */
@Configuration(proxyBeanMethods = false)
@EnableCaching
class CachingConfiguration {

	@Bean
	RedisCacheManagerBuilderCustomizer immediateCacheWrites(RedisConnectionFactory connectionFactory) {
		return (builder) -> builder
			.cacheWriter(RedisCacheWriter.create(connectionFactory, (writer) -> writer.immediateWrites()));
	}

}
