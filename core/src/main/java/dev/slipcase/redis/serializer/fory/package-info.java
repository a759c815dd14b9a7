/**
 * The Apache Fory format ({@link dev.slipcase.redis.serializer.fory.ForyFormat}) and what it
 * registers: the application classes a declared type can hold.
 */
@NullMarked
package dev.slipcase.redis.serializer.fory;

import org.jspecify.annotations.NullMarked;
