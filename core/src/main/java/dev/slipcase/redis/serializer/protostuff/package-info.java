/**
 * The protostuff formats ({@link dev.slipcase.redis.serializer.protostuff.ProtostuffFormat}, and
 * {@link dev.slipcase.redis.serializer.protostuff.PolymorphicProtostuffFormat} for an allowlist of
 * types) and the schemas under them, which handle Java records (which protostuff 1.8's runtime schema cannot:
 * record fields cannot be set after construction), collections with {@code null} elements, maps,
 * {@code Optional} and {@code java.time}, behind {@link dev.slipcase.redis.serializer.protostuff.ValueSchema}.
 */
@NullMarked
package dev.slipcase.redis.serializer.protostuff;

import org.jspecify.annotations.NullMarked;
