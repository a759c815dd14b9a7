package dev.slipcase.redis.serializer.family;

import java.util.List;

/** A generic value: which T it holds is known only from its allowlist entry. */
public record Page<T>(List<T> items, int total) {
}
