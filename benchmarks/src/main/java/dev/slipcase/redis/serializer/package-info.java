/**
 * Benchmarks of Slipcase's {@code RedisSerializer} family against Spring Data's own serializers,
 * side by side in one run.
 */
@NullMarked
package dev.slipcase.redis.serializer;

import org.jspecify.annotations.NullMarked;
