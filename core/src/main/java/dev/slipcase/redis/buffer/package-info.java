/**
 * Pooled Netty buffers and who owns them: which {@link io.netty.buffer.ByteBufAllocator} Slipcase
 * takes its buffers from (pooled, adaptive or unpooled; heap or direct), and
 * {@link dev.slipcase.redis.buffer.ValueLease}s, pooled buffers a caller reads a value into and
 * releases.
 */
@NullMarked
package dev.slipcase.redis.buffer;

import org.jspecify.annotations.NullMarked;
