package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import org.springframework.util.Assert;

/**
 * A Lettuce codec whose keys and values are written and read by {@link ValueFormat}s: values are
 * encoded straight into Lettuce's outbound buffer ({@link ToByteBufEncoder}) and decoded from the
 * {@code ByteBuffer} Lettuce hands over without copying it first. A value written through this
 * codec is readable by the {@code RedisSerializer} of the same format, and the other way round.
 * <p>
 * <b>Lettuce's rules.</b> Lettuce encodes on the connection's event loop, and since Lettuce 7.3 an
 * exception thrown while encoding closes the connection (failing or retrying every command on
 * it). Use this codec where values are known to serialize (strings, numbers, plain records); for
 * arbitrary user objects on a shared connection, serialize on the caller's thread with
 * {@link EncodedValue} and {@link EncodedValueCodec}, as
 * {@link dev.slipcase.redis.template.ValueTemplate} does. A decode failure fails only its own
 * command: Lettuce completes that command exceptionally with the
 * {@link org.springframework.data.redis.serializer.SerializationException} and keeps reading.
 * <p>
 * {@link #isEstimateExact()} is {@code true} only when both formats' estimates are exact and the
 * key and value format are the same, since Lettuce asks one {@link #estimateSize(Object)} for
 * keys and values alike. Values written and read (not keys) are reported to
 * {@link SlipcaseObservers#current()}. Immutable and thread-safe.
 *
 * @param <K> the type of keys
 * @param <V> the type of values
 */
public final class FormatCodec<K, V> implements RedisCodec<K, V>, ToByteBufEncoder<K, V> {

	private final ValueFormat<K> keys;

	private final ValueFormat<V> values;

	private final boolean exact;

	private FormatCodec(ValueFormat<K> keys, ValueFormat<V> values) {
		this.keys = keys;
		this.values = values;
		this.exact = keys.isEstimateExact() && values.isEstimateExact() && keys.equals(values);
	}

	/**
	 * A codec with UTF-8 {@code String} keys ({@link Utf8KeyFormat}) and values in {@code values}.
	 * @param values the value format, never {@code null}
	 */
	public static <V> FormatCodec<String, V> of(ValueFormat<V> values) {
		return of(Utf8KeyFormat.INSTANCE, values);
	}

	/**
	 * A codec with keys in {@code keys} and values in {@code values}.
	 * @param keys the key format, never {@code null}
	 * @param values the value format, never {@code null}
	 */
	public static <K, V> FormatCodec<K, V> of(ValueFormat<K> keys, ValueFormat<V> values) {
		Assert.notNull(keys, "keys must not be null");
		Assert.notNull(values, "values must not be null");
		return new FormatCodec<>(keys, values);
	}

	/** The value format, never {@code null}. */
	public ValueFormat<V> valueFormat() {
		return this.values;
	}

	/** The key format, never {@code null}. */
	public ValueFormat<K> keyFormat() {
		return this.keys;
	}

	/** Decodes a key from Lettuce's receive buffer; nothing keeps a reference to {@code bytes}. */
	@Override
	public K decodeKey(ByteBuffer bytes) {
		return FormatDecoding.decode(this.keys, bytes, null, false);
	}

	/**
	 * Decodes a value from Lettuce's receive buffer without copying it; nothing keeps a reference
	 * to {@code bytes}.
	 * @throws org.springframework.data.redis.serializer.SerializationException when the bytes are
	 * not a valid value of the format
	 */
	@Override
	public V decodeValue(ByteBuffer bytes) {
		return FormatDecoding.decode(this.values, bytes, null);
	}

	/** A heap copy of the encoded key (Lettuce uses it for cluster slots and {@code toString}). */
	@Override
	public ByteBuffer encodeKey(K key) {
		return toByteBuffer(this.keys, key);
	}

	/** A heap copy of the encoded value (Lettuce uses it only when not encoding to a ByteBuf). */
	@Override
	public ByteBuffer encodeValue(V value) {
		ByteBuffer encoded;
		try {
			encoded = toByteBuffer(this.values, value);
		}
		catch (RuntimeException ex) {
			writeFailed();
			throw ex;
		}
		written(encoded.remaining());
		return encoded;
	}

	/** Writes {@code key} into Lettuce's buffer {@code target}. The caller (Lettuce) remains responsible for releasing {@code target}. */
	@Override
	public void encodeKey(K key, ByteBuf target) {
		this.keys.encode(key, target);
	}

	/** Writes {@code value} into Lettuce's buffer {@code target}. The caller (Lettuce) remains responsible for releasing {@code target}. */
	@Override
	public void encodeValue(V value, ByteBuf target) {
		int start = target.writerIndex();
		try {
			this.values.encode(value, target);
		}
		catch (RuntimeException ex) {
			writeFailed();
			throw ex;
		}
		written(target.writerIndex() - start);
	}

	private void written(int bytes) {
		this.values.observer().valueWritten(this.values.name(), bytes);
	}

	private void writeFailed() {
		this.values.observer().serializationFailed(this.values.name(), SlipcaseObserver.Operation.WRITE);
	}

	@Override
	@SuppressWarnings("unchecked")
	public int estimateSize(Object keyOrValue) {
		if (this.exact) {
			return this.keys.estimateSize((K) keyOrValue);
		}
		try {
			return this.values.estimateSize((V) keyOrValue);
		}
		catch (ClassCastException ex) {
			// a key of another type than the values: an estimate is only a sizing hint here
			return this.keys.estimateSize((K) keyOrValue);
		}
	}

	@Override
	public boolean isEstimateExact() {
		return this.exact;
	}

	private static <T> ByteBuffer toByteBuffer(ValueFormat<T> format, T item) {
		ByteBuf buffer = ByteBufAllocator.DEFAULT.heapBuffer(format.estimateSize(item));
		try {
			format.encode(item, buffer);
			ByteBuffer copy = ByteBuffer.allocate(buffer.readableBytes());
			buffer.readBytes(copy);
			return copy.flip();
		}
		finally {
			buffer.release();
		}
	}

	@Override
	public String toString() {
		return "FormatCodec[keys=" + this.keys.name() + ", values=" + this.values.name() + "]";
	}

}
