package dev.slipcase.redis.autoconfigure.annotated;

/** A type without an annotation, which annotation-only scanning skips. */
public record Plain(String text) {
}
