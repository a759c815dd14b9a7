/**
 * The near cache: a bounded local tier of decoded values in front of Redis
 * ({@link dev.slipcase.redis.near.NearCache}), kept correct by Redis' own client-side caching
 * invalidations ({@link dev.slipcase.redis.near.NearCacheTracking} over one
 * {@link dev.slipcase.redis.near.KeyInvalidations} per server), and its Spring Cache form
 * ({@link dev.slipcase.redis.near.NearRedisCache}, {@link dev.slipcase.redis.near.NearCacheManager}).
 * Needs Caffeine on the class path.
 */
@NullMarked
package dev.slipcase.redis.near;

import org.jspecify.annotations.NullMarked;
