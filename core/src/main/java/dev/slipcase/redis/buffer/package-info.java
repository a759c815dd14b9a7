/**
 * Which {@link io.netty.buffer.ByteBufAllocator} Slipcase takes its buffers from (pooled,
 * adaptive or unpooled; heap or direct). Imports nothing else of Slipcase.
 */
@NullMarked
package dev.slipcase.redis.buffer;

import org.jspecify.annotations.NullMarked;
