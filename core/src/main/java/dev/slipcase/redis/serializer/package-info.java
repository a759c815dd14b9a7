/**
 * Slipcase's family of Spring Data {@code RedisSerializer}s and the formats behind them, built
 * from the formats' folders ({@code fory}, {@code json}, {@code protostuff}) and the plain ones
 * here (strings, numbers, bytes): one implementation of each wire format, shared by the
 * serializers (which must return a {@code byte[]}) and the zero-copy Lettuce codecs (which write
 * into Lettuce's own buffers). What a format is built from lives in {@code format}.
 */
@NullMarked
package dev.slipcase.redis.serializer;

import org.jspecify.annotations.NullMarked;
