package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * Decodes a {@code ByteBuffer} that Lettuce hands over (a view of its receive buffer, valid only
 * during the call) with a {@link ValueFormat}, without copying it into a {@code byte[]}: the
 * buffer is wrapped, not copied. Any failure becomes a {@link SerializationException} naming the
 * format and, where known, the key. Each value read (or failure) is reported to
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
	 * @throws SerializationException when the format rejects the bytes or fails in any other way
	 */
	public static <T> T decode(ValueFormat<T> format, ByteBuffer bytes, @Nullable Object key) {
		return decode(format, bytes, key, true);
	}

	/** Decodes a key or value; {@code observed} says whether it is reported as a value read. */
	static <T> T decode(ValueFormat<T> format, ByteBuffer bytes, @Nullable Object key, boolean observed) {
		ByteBuf view = Unpooled.wrappedBuffer(bytes);
		try {
			return decode(format, view, key, observed);
		}
		finally {
			// a view: releasing it never frees Lettuce's memory
			view.release();
		}
	}

	/**
	 * Decodes the readable bytes of {@code bytes} with {@code format}, advancing its reader index.
	 * The caller owns {@code bytes} and releases it; this method never releases or retains it.
	 * @param format the format, never {@code null}
	 * @param bytes the encoded value, never {@code null}
	 * @param key the key the value was read from, for the message; may be {@code null}
	 * @return the value, never {@code null}
	 * @throws SerializationException when the format rejects the bytes or fails in any other way
	 */
	public static <T> T decode(ValueFormat<T> format, ByteBuf bytes, @Nullable Object key) {
		return decode(format, bytes, key, true);
	}

	private static <T> T decode(ValueFormat<T> format, ByteBuf bytes, @Nullable Object key, boolean observed) {
		ByteBuf view = bytes;
		int start = view.readerIndex();
		try {
			T value = format.decode(view);
			if (value == null) {
				throw named(key, new SerializationException(describe(format, view) + ": the format returned null"));
			}
			if (observed) {
				SlipcaseObserver observer = SlipcaseObservers.current();
				if (observer != SlipcaseObserver.NOOP) {
					observer.valueRead(format.name(), view.readerIndex() - start);
				}
			}
			return value;
		}
		catch (SerializationException ex) {
			if (observed) {
				failed(format);
			}
			if (key == null || ex instanceof KeyedSerializationException) {
				throw ex;
			}
			throw named(key, new SerializationException(describe(format, view) + ": " + ex.getMessage(), ex));
		}
		catch (RuntimeException | StackOverflowError ex) {
			if (observed) {
				failed(format);
			}
			throw named(key, new SerializationException(describe(format, view) + ": the format failed ("
					+ ex.getClass().getSimpleName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : "") + ")",
					ex));
		}
	}

	private static void failed(ValueFormat<?> format) {
		SlipcaseObserver observer = SlipcaseObservers.current();
		if (observer != SlipcaseObserver.NOOP) {
			observer.serializationFailed(format.name(), SlipcaseObserver.Operation.READ);
		}
	}

	private static String describe(ValueFormat<?> format, ByteBuf view) {
		return "Cannot decode " + view.capacity() + " bytes with format '" + format.name() + "'";
	}

	/** {@code failure}, naming {@code key} when it is known. */
	private static SerializationException named(@Nullable Object key, SerializationException failure) {
		return (key != null) ? KeyedSerializationException.of(key, failure) : failure;
	}

}
