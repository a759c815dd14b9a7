package dev.slipcase.redis.benchmark;

import java.util.List;
import java.util.function.Supplier;

import tools.jackson.core.type.TypeReference;

/**
 * The payloads a benchmark can be run on, by {@code @Param} name, each with its value and the
 * type a typed serializer needs to read it back.
 */
public enum Payload {

	/** About 100 bytes of JSON. */
	SMALL(() -> Payloads.sessionToken(1), new TypeReference<Payloads.SessionToken>() {
	}),

	/** About 1 KB of JSON, with nested lists, a map and {@code Instant}s. */
	ORDER(() -> Payloads.order(1), new TypeReference<Payloads.Order>() {
	}),

	/** About 70 KB of JSON. */
	DOCUMENT(() -> Payloads.document(1), new TypeReference<Payloads.Document>() {
	}),

	/** A list of 50 small records. */
	LIST_50(() -> Payloads.sessionTokens(50), new TypeReference<List<Payloads.SessionToken>>() {
	}),

	/** A list of 50,000 small records. */
	LIST_50K(() -> Payloads.sessionTokens(50_000), new TypeReference<List<Payloads.SessionToken>>() {
	});

	private final Supplier<Object> value;

	private final TypeReference<?> type;

	Payload(Supplier<Object> value, TypeReference<?> type) {
		this.value = value;
		this.type = type;
	}

	/** A fresh instance of the payload, equal on every call. */
	public Object value() {
		return this.value.get();
	}

	/** The payload's full generic type, for typed serializers. */
	public TypeReference<?> type() {
		return this.type;
	}

}
