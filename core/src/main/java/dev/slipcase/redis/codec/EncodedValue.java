package dev.slipcase.redis.codec;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A value already serialized, on the caller's thread, into a pooled buffer that the command
 * sending it owns (or, from a serializer that returns arrays, its array: {@link #of(byte[])}). {@link EncodedValueCodec} copies its bytes into Lettuce's outbound buffer on the
 * event loop, which cannot fail for a serialization reason; the command releases it with
 * {@link #release()} once it is done (completed, failed or cancelled).
 * <p>
 * Lettuce may encode a command more than once: after a reconnect it writes again the commands it
 * had not received a reply for. The bytes are therefore never consumed ({@link #writeTo} leaves the
 * reader index alone) and stay valid until the command is done, after which Lettuce never writes
 * it again. A {@link #release()} that races with an encode in progress (a caller cancelling a
 * command the event loop is writing at that instant) waits for the encode: the buffer is freed by
 * whichever of the two finishes last, never under the encoder's feet. A party the owner lends
 * the value to (a transaction block that may write it after its caller gave up) {@link #pin pins}
 * it for as long as it may write it, in the same way. Because Netty recycles pooled buffer
 * objects, the guard lives in this object, not in the buffer's reference count.
 * <p>
 * {@link #encode} reports each value written (or failure) to
 * {@link SlipcaseObservers#current()}. Thread-safe.
 */
public final class EncodedValue {

	private static final int RELEASED = 1;

	private static final int PIN = 2;

	/** The pooled or wrapped buffer, or {@code null} for a value that holds a heap array. */
	private final @Nullable ByteBuf bytes;

	/** The heap array of an {@linkplain #of(byte[]) array value}, or {@code null}. */
	private final byte @Nullable [] array;

	private final int size;

	/** The first byte, or {@code -1} when empty: read once, so that asking for it never reads the buffer. */
	private final int firstByte;

	private static final AtomicIntegerFieldUpdater<EncodedValue> STATE = AtomicIntegerFieldUpdater
		.newUpdater(EncodedValue.class, "state");

	/** Bit 0: released by the owner; the rest: encodes in progress, times {@link #PIN}. */
	private volatile int state;

	private EncodedValue(ByteBuf bytes) {
		this.bytes = bytes;
		this.array = null;
		this.size = bytes.readableBytes();
		this.firstByte = (this.size > 0) ? bytes.getByte(bytes.readerIndex()) & 0xff : -1;
	}

	private EncodedValue(byte[] array) {
		this.bytes = null;
		this.array = array;
		this.size = array.length;
		this.firstByte = (this.size > 0) ? array[0] & 0xff : -1;
	}

	/**
	 * Serializes {@code value} with {@code format} into a buffer from {@code allocator}, on the
	 * calling thread.
	 * <p>
	 * The caller is responsible for releasing the returned value with {@link #release()}
	 * (normally by tying it to the completion of the command that sends it).
	 * @param format the format, never {@code null}
	 * @param value the value, never {@code null}
	 * @param allocator where the buffer comes from, never {@code null}
	 * @return the encoded value, never {@code null}
	 * @throws SerializationException when the format cannot encode the value; nothing is leaked
	 */
	public static <T> EncodedValue encode(ValueFormat<T> format, T value, ByteBufAllocator allocator) {
		Assert.notNull(value, "value must not be null");
		ByteBuf buffer = allocator.directBuffer(Math.max(format.estimateSize(value), 16));
		EncodedValue encoded;
		try {
			format.encode(value, buffer);
			encoded = new EncodedValue(buffer);
		}
		catch (SerializationException ex) {
			buffer.release();
			failed(format);
			throw ex;
		}
		catch (RuntimeException | StackOverflowError ex) {
			buffer.release();
			failed(format);
			throw new SerializationException("Cannot encode a " + value.getClass().getName() + " with format '"
					+ format.name() + "': " + ex, ex);
		}
		format.observer().valueWritten(format.name(), encoded.size);
		return encoded;
	}

	private static void failed(ValueFormat<?> format) {
		format.observer().serializationFailed(format.name(), SlipcaseObserver.Operation.WRITE);
	}

	/**
	 * Takes ownership of {@code bytes}' readable bytes as an encoded value.
	 * <p>
	 * Reference count ownership of {@code bytes} is transferred to this method; {@link #release()}
	 * releases it.
	 * @param bytes the encoded bytes, never {@code null}
	 */
	public static EncodedValue wrap(ByteBuf bytes) {
		Assert.notNull(bytes, "bytes must not be null");
		return new EncodedValue(bytes);
	}

	/**
	 * Takes {@code bytes}, a serializer's output, as an encoded value without copying it or wrapping
	 * it in a buffer. The array is not pooled: {@link #release()} only ends the owner's claim, after
	 * which the value is no longer written. The caller must not change the array afterwards.
	 * @param bytes the encoded bytes, never {@code null}
	 */
	public static EncodedValue of(byte[] bytes) {
		Assert.notNull(bytes, "bytes must not be null");
		return new EncodedValue(bytes);
	}

	/** The number of encoded bytes. */
	public int size() {
		return this.size;
	}

	/**
	 * Copies the encoded bytes to {@code target}'s writer index, without consuming them, so that a
	 * retried command writes the same bytes again. The caller remains responsible for releasing
	 * {@code target}.
	 * @throws IllegalStateException when this value was already released and nobody
	 * {@linkplain #pin pins} it: its command is done and must not be written (Lettuce then closes the
	 * connection and retries the other commands)
	 */
	public void writeTo(ByteBuf target) {
		if (!pin()) {
			throw released();
		}
		try {
			if (this.array != null) {
				target.writeBytes(this.array);
			}
			else {
				target.writeBytes(this.bytes, this.bytes.readerIndex(), this.size);
			}
		}
		finally {
			unpin();
		}
	}

	/**
	 * Whether the first byte is {@code value}; {@code false} when empty. Reads no buffer, so it holds
	 * after a release too.
	 */
	public boolean startsWith(byte value) {
		return this.firstByte == (value & 0xff);
	}

	/**
	 * The bytes as a heap array, for a command whose codec takes arrays: the array of an
	 * {@linkplain #of(byte[]) array value} itself, which the caller must not change, else a copy;
	 * as {@link #writeTo}, the bytes are not consumed.
	 * @throws IllegalStateException when this value was already released and nobody pins it
	 */
	public byte[] toByteArray() {
		if (this.array != null) {
			if (!pin()) {
				throw released();
			}
			unpin();
			return this.array;
		}
		byte[] copy = new byte[this.size];
		writeTo(Unpooled.wrappedBuffer(copy).writerIndex(0));
		return copy;
	}

	/** Whether {@link #release()} was called. */
	public boolean isReleased() {
		return (this.state & RELEASED) != 0;
	}

	/**
	 * Gives up the owner's claim on the buffer: it is freed now, or when an encode in progress
	 * finishes. Idempotent, so every terminal path of a command may call it.
	 */
	public void release() {
		int previous;
		do {
			previous = this.state;
			if ((previous & RELEASED) != 0) {
				return;
			}
		}
		while (!STATE.compareAndSet(this, previous, previous | RELEASED));
		if (previous == 0) {
			free();
		}
	}

	/**
	 * Keeps the bytes valid until {@link #unpin()}, even past the owner's {@link #release()}: for a
	 * party the owner lends the value to, which may write it later. Succeeds while the bytes are
	 * valid: not released, or released but still pinned (a write by the party that pinned it). Each
	 * successful pin is undone by exactly one {@code unpin()}.
	 * @return {@code false} when the bytes were freed: nothing was pinned
	 */
	public boolean pin() {
		int current;
		do {
			current = this.state;
			if (current == RELEASED) {
				return false;
			}
		}
		while (!STATE.compareAndSet(this, current, current + PIN));
		return true;
	}

	/** Undoes one successful {@link #pin()}: frees the buffer when the owner released it and no pin is left. */
	public void unpin() {
		if (STATE.addAndGet(this, -PIN) == RELEASED) {
			free();
		}
	}

	private IllegalStateException released() {
		return new IllegalStateException("Encoded value of " + this.size
				+ " bytes was released before it was written: its command was cancelled while being encoded");
	}

	/** Frees the buffer; an array value has none. */
	private void free() {
		if (this.bytes != null) {
			this.bytes.release();
		}
	}

	@Override
	public String toString() {
		return "EncodedValue[" + this.size + " bytes" + (isReleased() ? ", released" : "") + "]";
	}

}
