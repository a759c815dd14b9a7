package dev.slipcase.redis.autoconfigure;

import org.springframework.data.redis.core.RedisTemplate;

/**
 * Customizes the {@code RedisTemplate}s Slipcase configures ({@code slipcaseRedisTemplate}, and
 * Boot's {@code redisTemplate} when {@code slipcase.redis.redis-template.enabled}) after their
 * serializers are set and before they are initialised. Customizers run in {@code @Order}.
 */
@FunctionalInterface
public interface SlipcaseRedisTemplateCustomizer {

	/** Customizes {@code template}. */
	void customize(RedisTemplate<?, ?> template);

}
