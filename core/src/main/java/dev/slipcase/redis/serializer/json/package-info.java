/**
 * The JSON formats ({@link dev.slipcase.redis.serializer.json.JsonFormat}, and
 * {@link dev.slipcase.redis.serializer.json.PolymorphicJsonFormat} for an allowlist of types) and
 * the Jackson plumbing under them: the default mapper, reading and writing straight from
 * and to a {@code ByteBuf}, faster readers and writers for records, instants and ASCII strings,
 * and reading what Spring Data's JSON serializers wrote.
 */
@NullMarked
package dev.slipcase.redis.serializer.json;

import org.jspecify.annotations.NullMarked;
