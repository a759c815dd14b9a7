/**
 * The sample app's Redis: the one in {@code spring.data.redis.*}, or an embedded one started when
 * none is configured.
 */
@NullMarked
package dev.slipcase.redis.sample.redis;

import org.jspecify.annotations.NullMarked;
