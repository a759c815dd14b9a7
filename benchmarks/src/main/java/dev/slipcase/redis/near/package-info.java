/**
 * Benchmarks of the near cache: Spring's {@code Cache} through a near tier beside the plain
 * Redis-backed cache, and the report's section of its figures against the targets it was built to.
 */
@NullMarked
package dev.slipcase.redis.near;

import org.jspecify.annotations.NullMarked;
