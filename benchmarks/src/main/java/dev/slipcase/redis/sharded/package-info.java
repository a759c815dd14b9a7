/**
 * Benchmarks of the hash-sharded template against plain {@code SET}/{@code GET}/{@code MGET}: memory
 * ({@link dev.slipcase.redis.sharded.ShardedMemoryReport}) and speed
 * ({@link dev.slipcase.redis.sharded.ShardedTemplateBenchmark}), each against a fresh Redis of its own.
 */
@NullMarked
package dev.slipcase.redis.sharded;

import org.jspecify.annotations.NullMarked;
