/**
 * What a value format is built from: {@link dev.slipcase.redis.serializer.format.ValueFormat} (a
 * value to and from a {@code ByteBuf}), {@link dev.slipcase.redis.serializer.format.TaggedFormat}
 * and {@link dev.slipcase.redis.serializer.format.SelfDescribingFormat} (the header that names a
 * value's format and compression), the header's ids, the allowlist of polymorphic types, and the
 * errors a format raises. Each format lives in a folder of its own ({@code fory}, {@code json},
 * {@code protostuff}, {@code jdk}) and imports this package, never the other way round.
 */
@NullMarked
package dev.slipcase.redis.serializer.format;

import org.jspecify.annotations.NullMarked;
