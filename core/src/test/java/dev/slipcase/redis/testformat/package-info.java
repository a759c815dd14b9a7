/**
 * Small {@code ValueFormat}s for tests only: the real wire formats live in the serializer package.
 */
@NullMarked
package dev.slipcase.redis.testformat;

import org.jspecify.annotations.NullMarked;
