package dev.slipcase.redis.serializer;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A Spring Data {@link RedisSerializer} over a {@link ValueFormat}, for {@code RedisTemplate},
 * {@code RedisCacheConfiguration} and Spring Session.
 * <p>
 * {@link #serialize} encodes into a scratch buffer from the configured allocator (pooled by
 * default) and copies it exactly once into the returned array; when the format knows the exact
 * size up front, it encodes straight into the returned array instead. {@link #deserialize}
 * decodes the given array in place (wrapped, not copied). Every scratch buffer is released
 * before the call returns, also when it throws.
 * <p>
 * Nulls follow Spring Data's contract: {@code null} serializes to an empty array, and an empty
 * array (or {@code null}) deserializes to {@code null} ({@code ""} for the string serializer, as
 * {@code StringRedisSerializer} does). Failures are {@link SerializationException}s naming the
 * format. Immutable and thread-safe; create through {@link SlipcaseSerializers}.
 * <p>
 * Each value written or read, and each failure, is reported to
 * {@link SlipcaseObservers#current()} under the format's name.
 *
 * @param <T> the type of value
 */
public final class SlipcaseRedisSerializer<T> implements RedisSerializer<T> {

	private static final byte[] EMPTY = new byte[0];

	private final ValueFormat<T> format;

	private final @Nullable Class<?> targetType;

	private final @Nullable T emptyValue;

	private final ByteBufAllocator allocator;

	private final String formatName;

	private SlipcaseRedisSerializer(ValueFormat<T> format, @Nullable Class<?> targetType, @Nullable T emptyValue,
			ByteBufAllocator allocator) {
		this.format = format;
		this.targetType = targetType;
		this.emptyValue = emptyValue;
		this.allocator = allocator;
		this.formatName = format.name();
	}

	/**
	 * A serializer over {@code format}, with scratch buffers from Netty's default allocator.
	 * @param targetType the type {@link #getTargetType()} reports, or {@code null}
	 */
	public static <T> SlipcaseRedisSerializer<T> of(ValueFormat<T> format, @Nullable Class<?> targetType) {
		return of(format, targetType, BufferAllocators.defaultAllocator());
	}

	/**
	 * A serializer over {@code format}, with scratch buffers from {@code allocator}.
	 * @param targetType the type {@link #getTargetType()} reports, or {@code null}
	 */
	public static <T> SlipcaseRedisSerializer<T> of(ValueFormat<T> format, @Nullable Class<?> targetType,
			ByteBufAllocator allocator) {
		Assert.notNull(format, "format must not be null");
		Assert.notNull(allocator, "allocator must not be null");
		return new SlipcaseRedisSerializer<>(format, targetType, null, allocator);
	}

	/** This serializer, deserializing an empty array to {@code emptyValue} instead of {@code null}. */
	public SlipcaseRedisSerializer<T> withEmptyValue(@Nullable T emptyValue) {
		return new SlipcaseRedisSerializer<>(this.format, this.targetType, emptyValue, this.allocator);
	}

	/** This serializer, taking scratch buffers from {@code allocator}. */
	public SlipcaseRedisSerializer<T> withAllocator(ByteBufAllocator allocator) {
		Assert.notNull(allocator, "allocator must not be null");
		return new SlipcaseRedisSerializer<>(this.format, this.targetType, this.emptyValue, allocator);
	}

	/** The format values are written and read in. */
	public ValueFormat<T> format() {
		return this.format;
	}

	/**
	 * The allocator scratch buffers come from; a template that encodes values with
	 * {@link #format()} takes its buffers there too.
	 */
	public ByteBufAllocator allocator() {
		return this.allocator;
	}

	@Override
	public byte[] serialize(@Nullable T value) throws SerializationException {
		if (value == null) {
			return EMPTY;
		}
		byte[] bytes;
		try {
			bytes = this.format.isEstimateExact() ? serializeExact(value) : serializeScratch(value);
		}
		catch (SerializationException ex) {
			this.format.observer().serializationFailed(this.formatName, SlipcaseObserver.Operation.WRITE);
			throw ex;
		}
		catch (RuntimeException ex) {
			this.format.observer().serializationFailed(this.formatName, SlipcaseObserver.Operation.WRITE);
			throw FormatErrors.encodeFailure(this.formatName, ex);
		}
		this.format.observer().valueWritten(this.formatName, bytes.length);
		return bytes;
	}

	private byte[] serializeScratch(T value) {
		ByteBuf scratch = this.allocator.buffer(this.format.estimateSize(value));
		try {
			this.format.encode(value, scratch);
			byte[] bytes = new byte[scratch.readableBytes()];
			scratch.readBytes(bytes);
			return bytes;
		}
		finally {
			scratch.release();
		}
	}

	private byte[] serializeExact(T value) {
		byte[] bytes = new byte[this.format.estimateSize(value)];
		ByteBuf target = Unpooled.wrappedBuffer(bytes).writerIndex(0);
		try {
			this.format.encode(value, target);
			if (target.writerIndex() != bytes.length) {
				throw FormatErrors.error(this.format.name(), "wrote " + target.writerIndex()
						+ " bytes where it promised exactly " + bytes.length);
			}
			return bytes;
		}
		finally {
			target.release();
		}
	}

	@Override
	public @Nullable T deserialize(byte @Nullable [] bytes) throws SerializationException {
		if (bytes == null) {
			return null;
		}
		if (bytes.length == 0) {
			return this.emptyValue;
		}
		ByteBuf in = Unpooled.wrappedBuffer(bytes);
		try {
			T value = this.format.decode(in);
			if (in.isReadable()) {
				throw FormatErrors.error(this.formatName, in.readableBytes() + " bytes left after the value");
			}
			this.format.observer().valueRead(this.formatName, bytes.length);
			return value;
		}
		catch (SerializationException ex) {
			this.format.observer().serializationFailed(this.formatName, SlipcaseObserver.Operation.READ);
			throw ex;
		}
		catch (RuntimeException ex) {
			this.format.observer().serializationFailed(this.formatName, SlipcaseObserver.Operation.READ);
			throw FormatErrors.decodeFailure(this.formatName, ex);
		}
		finally {
			in.release();
		}
	}

	@Override
	public Class<?> getTargetType() {
		return (this.targetType != null) ? this.targetType : Object.class;
	}

	@Override
	public String toString() {
		return "SlipcaseRedisSerializer[" + this.format.name() + "]";
	}

}
