package dev.slipcase.redis.serializer.format;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import io.netty.buffer.ByteBuf;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * One wire format for values of type {@code T}: the single place that turns a value into bytes
 * and back. The {@code RedisSerializer} adapters and the Lettuce codecs both delegate here, so a
 * value written by one path is always readable by the other.
 * <p>
 * Implementations are immutable and thread-safe. {@code null} is never passed to or returned from
 * a format: the adapters map it (Spring Data's contract is {@code null} ⇄ empty array).
 *
 * @param <T> the type of value
 */
public interface ValueFormat<T> {

	/**
	 * Writes {@code value} at {@code out}'s writer index, growing it as needed.
	 * <p>
	 * The caller owns {@code out} and releases it; this method never releases it, also when it
	 * throws. On failure, the bytes written so far are left in place for the caller to discard.
	 * @param value the value, never {@code null}
	 * @param out the buffer to write into, never {@code null}
	 * @throws SerializationException when the value cannot be encoded, saying which format failed
	 * and why
	 */
	void encode(T value, ByteBuf out);

	/**
	 * Reads one whole value from {@code in}'s readable bytes, advancing its reader index.
	 * <p>
	 * The caller owns {@code in} and releases it; this method never releases or retains it, and
	 * the returned value never refers to its memory (the buffer may be a view of a network buffer
	 * that is recycled as soon as this method returns).
	 * @param in the encoded value, never {@code null}
	 * @return the value, never {@code null}
	 * @throws SerializationException when the bytes are not a valid value of this format
	 * (corrupt, truncated, oversized or hostile), saying which format and what was wrong; never
	 * another exception type
	 */
	T decode(ByteBuf in);

	/**
	 * How many bytes {@link #encode} will probably write for {@code value}, to size a buffer
	 * before writing. Never negative.
	 */
	default int estimateSize(T value) {
		return 128;
	}

	/** Whether {@link #estimateSize} is always exactly the number of bytes written. */
	default boolean isEstimateExact() {
		return false;
	}

	/** The format's name for messages and metrics, such as {@code "json"} or {@code "protostuff+zstd"}. */
	String name();

	/**
	 * Where the serializers, codecs and templates using this format report what they do:
	 * {@link SlipcaseObservers#global()} unless the format was built with an observer of its own
	 * (an application context's meters, say). Never {@code null}.
	 */
	default SlipcaseObserver observer() {
		return SlipcaseObservers.global();
	}

}
