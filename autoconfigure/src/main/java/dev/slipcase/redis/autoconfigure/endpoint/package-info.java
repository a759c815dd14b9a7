/**
 * The {@code slipcase} actuator endpoint: Slipcase's effective configuration and the memory report
 * of each sharded namespace.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
