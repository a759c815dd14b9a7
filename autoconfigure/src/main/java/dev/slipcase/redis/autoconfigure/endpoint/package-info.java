/**
 * The {@code slipcase} actuator endpoint: Slipcase's effective configuration, the memory report
 * of each sharded namespace and the near tiers of caches.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
