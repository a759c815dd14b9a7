/**
 * {@link dev.slipcase.redis.template.ValueTemplate}: a typed Redis template on Lettuce's own
 * connections with no intermediate {@code byte[]}: values are serialized on the caller's thread
 * into pooled buffers that Lettuce copies into its outbound buffer, and decoded straight from
 * Lettuce's receive buffer. Sync, {@code CompletableFuture} and pipelined batch forms,
 * standalone, Sentinel and Cluster, one view per database, {@link dev.slipcase.redis.template.ValueLease}s
 * (pooled buffers a caller reads a value into and releases) and large values.
 */
@NullMarked
package dev.slipcase.redis.template;

import org.jspecify.annotations.NullMarked;
