/**
 * Slipcase's family of Spring Data {@code RedisSerializer}s and the {@link ValueFormat}s behind
 * them: one implementation of each wire format, shared by the serializers (which must return a
 * {@code byte[]}) and the zero-copy Lettuce codecs (which write into Lettuce's own buffers).
 */
@NullMarked
package dev.slipcase.redis.serializer;

import org.jspecify.annotations.NullMarked;
