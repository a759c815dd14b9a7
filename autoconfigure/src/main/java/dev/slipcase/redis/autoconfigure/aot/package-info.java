/**
 * Ahead-of-time processing and native-image hints: the reflection Slipcase's formats need for
 * the application's value types, and the native libraries of the compressors.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.aot;

import org.jspecify.annotations.NullMarked;
