/**
 * Pooled Netty buffers and who owns them: allocators and leases.
 */
@NullMarked
package dev.slipcase.redis.buffer;

import org.jspecify.annotations.NullMarked;
