package dev.slipcase.redis.sample.catalogue;

import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

/**
 * Turns Spring's caching on. Nothing here is Slipcase's: the starter makes Boot's Redis cache
 * manager store values with Slipcase, each cache's format comes from
 * {@code slipcase.redis.cache.caches.*}, and the near tier of {@code products} from
 * {@code slipcase.redis.cache.near.*}; with the near tier on, the starter's cache writer puts a
 * value in Redis before the cached method returns (Spring Data Redis 4 otherwise writes cache
 * entries asynchronously), so the next read hits the cache.
 */
@Configuration(proxyBeanMethods = false)
@EnableCaching
class CachingConfiguration {

}
