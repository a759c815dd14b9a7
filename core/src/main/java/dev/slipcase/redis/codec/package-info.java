/**
 * Lettuce {@code RedisCodec}s that write straight into Lettuce's outbound buffers
 * ({@code ToByteBufEncoder}) and decode from the {@code ByteBuffer} Lettuce hands over without
 * copying it into a {@code byte[]} first, delegating the wire format to a
 * {@link dev.slipcase.redis.serializer.format.ValueFormat}.
 * <p>
 * {@link dev.slipcase.redis.codec.FormatCodec} is the plain codec for use with Lettuce's own
 * command APIs; {@link dev.slipcase.redis.codec.EncodedValueCodec} sends values that were
 * serialized on the caller's thread ({@link dev.slipcase.redis.codec.EncodedValue}), so that a
 * value that cannot be serialized fails its own call instead of the shared connection.
 */
@NullMarked
package dev.slipcase.redis.codec;

import org.jspecify.annotations.NullMarked;
