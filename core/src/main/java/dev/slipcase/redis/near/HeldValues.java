package dev.slipcase.redis.near;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * How a near tier holds the values it serves, for Spring's cache ({@link NearRedisCache}) and
 * Slipcase's template alike: a value no reader can change ({@link ImmutableValues}) as it is,
 * handed to every reader; any other as its serialized bytes, decoded into a copy of its own for
 * each read, so that a reader changing its copy changes nobody else's. The bytes are a
 * {@code byte[]} on the heap: nothing held is pooled, nothing is released. Thread-safe when its
 * functions are.
 *
 * @param <V> the type of values
 */
public final class HeldValues<V> {

	private final Function<V, byte[]> serializer;

	private final Function<byte[], @Nullable V> deserializer;

	/**
	 * @param serializer the bytes of a value, as Redis would store them
	 * @param deserializer a new value from those bytes
	 */
	public HeldValues(Function<V, byte[]> serializer, Function<byte[], @Nullable V> deserializer) {
		this.serializer = serializer;
		this.deserializer = deserializer;
	}

	/** What the tier holds of {@code value}, read from Redis: itself, or its serialized copy. */
	public @Nullable Object held(@Nullable V value) {
		if (value == null || ImmutableValues.isImmutable(value)) {
			return value;
		}
		return new SerializedCopy(this.serializer.apply(value));
	}

	/**
	 * What the tier holds of {@code value}, just written as {@code bytes}: what a read of those
	 * bytes from Redis would hold (a value that may be shared is decoded from them, so that readers
	 * get what Redis would give them, not the writer's object), or {@code null}: nothing, when the
	 * bytes cannot be read back.
	 */
	public @Nullable Object heldAsWritten(V value, byte[] bytes) {
		if (!ImmutableValues.isImmutable(value)) {
			return new SerializedCopy(bytes); // decoded for each read in any case
		}
		try {
			V decoded = this.deserializer.apply(bytes);
			return (decoded == null || ImmutableValues.isImmutable(decoded)) ? decoded : new SerializedCopy(bytes);
		}
		catch (RuntimeException ex) {
			return null; // a value its serializer cannot read back: held by no one, read from Redis
		}
	}

	/** The value a reader is handed of what the tier holds: {@code held} itself, or a copy decoded for it. */
	@SuppressWarnings("unchecked")
	public @Nullable V readable(@Nullable Object held) {
		return (held instanceof SerializedCopy copy) ? this.deserializer.apply(copy.bytes()) : (V) held;
	}

	/** A value held serialized, because a reader could change the decoded one. */
	private record SerializedCopy(byte[] bytes) {
	}

}
