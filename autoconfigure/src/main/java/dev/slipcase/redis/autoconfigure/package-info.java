/**
 * Spring Boot auto-configuration of Slipcase's serializers, {@code RedisTemplate} and the
 * {@code slipcase.redis.*} properties.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure;

import org.jspecify.annotations.NullMarked;
