/**
 * Netty allocator plumbing: which {@link io.netty.buffer.ByteBufAllocator} Slipcase takes its
 * scratch buffers from (pooled, adaptive or unpooled; heap or direct).
 */
@NullMarked
package dev.slipcase.redis.buffer;

import org.jspecify.annotations.NullMarked;
