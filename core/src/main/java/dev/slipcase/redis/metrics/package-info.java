/**
 * Instrumentation hooks with no cost when unused: the serializers, codecs, compression, leases and
 * the sharded template report what they do to the {@link dev.slipcase.redis.metrics.SlipcaseObserver}s
 * registered with {@link dev.slipcase.redis.metrics.SlipcaseObservers}. Slipcase's Spring Boot
 * auto-configuration registers one that feeds Micrometer; core itself depends on no metrics library.
 */
@NullMarked
package dev.slipcase.redis.metrics;

import org.jspecify.annotations.NullMarked;
