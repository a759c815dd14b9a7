/**
 * The product catalogue: products and category listings behind {@code @Cacheable}, view
 * counters and feature flags in sharded namespaces.
 */
@NullMarked
package dev.slipcase.redis.sample.catalogue;

import org.jspecify.annotations.NullMarked;
