/**
 * Spring Cache integration: {@code @Cacheable} values stored with Slipcase's serializers.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.cache;

import org.jspecify.annotations.NullMarked;
