/**
 * Payloads shared by Slipcase's benchmarks: deterministic records of the sizes the benchmarks
 * compare on.
 */
@NullMarked
package dev.slipcase.redis.benchmark;

import org.jspecify.annotations.NullMarked;
