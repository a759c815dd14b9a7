/**
 * Spring Data's {@code RedisTemplate} and {@code ReactiveRedisTemplate} with Slipcase's
 * serializers: {@link dev.slipcase.redis.springdata.SlipcaseRedisTemplate} and
 * {@link dev.slipcase.redis.springdata.SlipcaseReactiveRedisTemplate}, whose failures name the key.
 */
@NullMarked
package dev.slipcase.redis.springdata;

import org.jspecify.annotations.NullMarked;
