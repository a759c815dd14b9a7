/**
 * Micrometer meters for Slipcase ({@code slipcase.redis.*}): serialized bytes, errors,
 * compression, pooled buffer memory, leases and sharded namespaces.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
