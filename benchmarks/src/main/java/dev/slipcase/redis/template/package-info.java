/**
 * Benchmarks of Slipcase's zero-copy {@code ValueTemplate} against a real local Redis, side by
 * side in one run with Spring Data's {@code RedisTemplate} and raw Lettuce.
 */
@NullMarked
package dev.slipcase.redis.template;

import org.jspecify.annotations.NullMarked;
