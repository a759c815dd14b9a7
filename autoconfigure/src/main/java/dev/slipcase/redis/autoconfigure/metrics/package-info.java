/**
 * Micrometer meters for Slipcase ({@code slipcase.redis.*}): serialized bytes, errors,
 * compression, pooled buffer memory, leases, sharded namespaces and the near tiers of caches.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
