package dev.slipcase.redis.autoconfigure;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/** A record with {@code java.time}, a generic list and a nullable component, for round trips. */
public record Order(String id, Instant placedAt, List<String> items, @Nullable String note) {

}
