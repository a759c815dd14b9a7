@org.jspecify.annotations.NullMarked
package dev.slipcase.redis.autoconfigure.annotated;
