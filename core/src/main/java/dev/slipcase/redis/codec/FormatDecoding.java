package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * Decodes a {@code ByteBuffer} that Lettuce hands over (a view of its receive buffer, valid only
 * during the call) with a {@link ValueFormat}, without copying it into a {@code byte[]}: the
 * buffer is wrapped, not copied. Any failure becomes a {@link SerializationException} naming the
 * format and, where known, the key ({@link KeyedSerializationException}). Each value read (or failure) is reported to
 * {@link SlipcaseObservers#current()}; {@link FormatCodec}'s keys are not.
 */
public final class FormatDecoding {

	private FormatDecoding() {
	}

	/**
	 * Decodes the remaining bytes of {@code bytes} with {@code format}. The buffer's position is
	 * not changed; nothing keeps a reference to it after this method returns.
	 * @param format the format, never {@code null}
	 * @param bytes the encoded value, never {@code null}
	 * @param key the key the value was read from, for the message; may be {@code null}
	 * @return the value, never {@code null}
	 * @throws SerializationException when the format rejects the bytes or fails in any other way;
	 * a {@link KeyedSerializationException} when {@code key} is given
	 */
	public static <T> T decode(ValueFormat<T> format, ByteBuffer bytes, @Nullable Object key) {
		return decode(format, bytes, key, null, true);
	}

	/**
	 * Decodes the remaining bytes of {@code bytes}, the value of {@code field} of the hash at
	 * {@code key}, with {@code format}; see {@link #decode(ValueFormat, ByteBuffer, Object)}.
	 * @throws KeyedSerializationException naming the key and the field when the format rejects the
	 * bytes or fails in any other way
	 */
	public static <T> T decodeField(ValueFormat<T> format, ByteBuffer bytes, Object key, String field) {
		return decode(format, bytes, key, field, true);
	}

	/** Decodes a key or value; {@code observed} says whether it is reported as a value read. */
	static <T> T decode(ValueFormat<T> format, ByteBuffer bytes, @Nullable Object key, boolean observed) {
		return decode(format, bytes, key, null, observed);
	}

	private static <T> T decode(ValueFormat<T> format, ByteBuffer bytes, @Nullable Object key, @Nullable String field,
			boolean observed) {
		ByteBuf view = Unpooled.wrappedBuffer(bytes);
		try {
			return decode(format, view, key, field, observed);
		}
		finally {
			// a view: releasing it never frees Lettuce's memory
			view.release();
		}
	}

	/**
	 * Decodes the readable bytes of {@code bytes} with {@code format}, advancing its reader index.
	 * The caller remains responsible for releasing {@code bytes}; this method does not retain it.
	 * @param format the format, never {@code null}
	 * @param bytes the encoded value, never {@code null}
	 * @param key the key the value was read from, for the message; may be {@code null}
	 * @return the value, never {@code null}
	 * @throws SerializationException when the format rejects the bytes or fails in any other way;
	 * a {@link KeyedSerializationException} when {@code key} is given
	 */
	public static <T> T decode(ValueFormat<T> format, ByteBuf bytes, @Nullable Object key) {
		return decode(format, bytes, key, null, true);
	}

	/**
	 * Decodes the readable bytes of {@code bytes}, the value of {@code field} of the hash at
	 * {@code key}, with {@code format}; see {@link #decode(ValueFormat, ByteBuf, Object)}. The caller
	 * remains responsible for releasing {@code bytes}; this method does not retain it.
	 * @throws KeyedSerializationException naming the key and the field when the format rejects the
	 * bytes or fails in any other way
	 */
	public static <T> T decodeField(ValueFormat<T> format, ByteBuf bytes, Object key, String field) {
		return decode(format, bytes, key, field, true);
	}

	/** Decodes {@code bytes}; the caller remains responsible for releasing them. */
	private static <T> T decode(ValueFormat<T> format, ByteBuf bytes, @Nullable Object key, @Nullable String field,
			boolean observed) {
		ByteBuf view = bytes;
		int start = view.readerIndex();
		T value;
		try {
			value = format.decode(view);
		}
		catch (SerializationException ex) {
			// the format's own message, which names the format; keyed where the key is known
			throw failure(format, key, (key != null) ? describe(format, field, view) + ": " + ex.getMessage() : null, ex,
					observed);
		}
		catch (RuntimeException | StackOverflowError ex) {
			throw failure(format, key, describe(format, field, view) + ": " + ex, ex, observed);
		}
		if (value == null) {
			throw failure(format, key, describe(format, field, view) + ": the format returned null", null, observed);
		}
		if (observed) {
			format.observer().valueRead(format.name(), view.readerIndex() - start);
		}
		return value;
	}

	/**
	 * The failure to throw, reported to the observer when {@code observed}: {@code cause} itself
	 * when it is a {@link SerializationException} and no {@code message} is given, else a new one with
	 * {@code message}; keyed when {@code key} is known.
	 */
	private static SerializationException failure(ValueFormat<?> format, @Nullable Object key, @Nullable String message,
			@Nullable Throwable cause, boolean observed) {
		if (observed) {
			failed(format);
		}
		SerializationException failure = (message == null && cause instanceof SerializationException own) ? own
				: new SerializationException(message, cause);
		return (key != null) ? KeyedSerializationException.of(key, failure) : failure;
	}

	private static void failed(ValueFormat<?> format) {
		format.observer().serializationFailed(format.name(), SlipcaseObserver.Operation.READ);
	}

	/** The start of a failure's message; reads only the capacity of {@code view}, which the caller releases. */
	private static String describe(ValueFormat<?> format, @Nullable String field, ByteBuf view) {
		String of = (field != null) ? " of field '" + KeyedSerializationException.describe(field) + "'" : "";
		return "Cannot decode " + view.capacity() + " bytes" + of + " with format '" + format.name() + "'";
	}

}
