/**
 * The one-command benchmark suite: runs every comparison with a profile's iterations, then writes
 * the report.
 */
@NullMarked
package dev.slipcase.redis.benchmark.suite;

import org.jspecify.annotations.NullMarked;
