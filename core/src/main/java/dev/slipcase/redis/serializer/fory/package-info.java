/**
 * What Slipcase's Fory format registers: the application classes a declared type can hold.
 */
@NullMarked
package dev.slipcase.redis.serializer.fory;

import org.jspecify.annotations.NullMarked;
