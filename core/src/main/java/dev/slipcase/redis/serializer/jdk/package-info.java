/**
 * Reading and writing JDK-serialized values while an application moves off them: the values
 * {@code JdkSerializationRedisSerializer} wrote before Slipcase, read only through an allowlist of
 * classes and limits on depth, references and size, and a serializer that reads both formats and
 * writes the one its {@link dev.slipcase.redis.serializer.jdk.SwitchOverPhase phase} names.
 */
@NullMarked
package dev.slipcase.redis.serializer.jdk;

import org.jspecify.annotations.NullMarked;
