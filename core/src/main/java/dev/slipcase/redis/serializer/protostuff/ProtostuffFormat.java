package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.lang.reflect.Type;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.SizeHint;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.json.JsonSupport;
import io.netty.buffer.ByteBuf;
import io.protostuff.ByteArrayInput;
import io.protostuff.ByteBufferInput;
import io.protostuff.LinkedBuffer;
import io.protostuff.ProtostuffIOUtil;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * Protostuff (protobuf wire encoding, nested messages as groups) through a schema built from the
 * Java type at creation: records (which protostuff 1.8's {@code RuntimeSchema} throws on), concrete
 * classes, collections, maps, {@code Optional} components and {@code java.time} types; see
 * {@link ValueSchema}. Binary, so a {@link SelfDescribingFormat} always stores it behind a header.
 * <p>
 * Encoding streams through a {@link LinkedBuffer} reused per thread (never allocated per call)
 * into {@code out}; decoding reads array-backed buffers in place and other buffers through their
 * NIO view. Never releases a buffer. Immutable and thread-safe.
 * <p>
 * Needs {@code io.protostuff:protostuff-core} and {@code protostuff-runtime} on the class path
 * (optional dependencies of Slipcase).
 *
 * @param <T> the type of value
 */
public final class ProtostuffFormat<T> implements TaggedFormat<T> {

	private static final int BUFFER_SIZE = 4096;

	private static final ThreadLocal<LinkedBuffer> BUFFERS = ThreadLocal
		.withInitial(() -> LinkedBuffer.allocate(BUFFER_SIZE));

	private final ValueSchema<T> schema;

	private final SizeHint sizeHint = new SizeHint();

	private ProtostuffFormat(ValueSchema<T> schema) {
		this.schema = schema;
	}

	/**
	 * Protostuff for values of {@code type}.
	 * @throws IllegalArgumentException when the type cannot be handled, saying which part and why
	 */
	public static <T> ProtostuffFormat<T> of(Class<T> type) {
		Assert.notNull(type, "type must not be null");
		return new ProtostuffFormat<>(ValueSchema.of(type));
	}

	/**
	 * Protostuff for values of the generic {@code type}, such as {@code List<Order>}.
	 * @throws IllegalArgumentException when the type cannot be handled, saying which part and why
	 */
	public static <T> ProtostuffFormat<T> of(TypeReference<T> type) {
		Assert.notNull(type, "type must not be null");
		return new ProtostuffFormat<>(ValueSchema.of(type.getType()));
	}

	/** Protostuff for values of {@code type}; the caller vouches that {@code T} matches it. */
	public static <T> ProtostuffFormat<T> of(Type type) {
		Assert.notNull(type, "type must not be null");
		return new ProtostuffFormat<>(ValueSchema.of(type));
	}

	@Override
	public void encode(T value, ByteBuf out) {
		int start = out.writerIndex();
		LinkedBuffer buffer = BUFFERS.get();
		try {
			ProtostuffIOUtil.writeTo(JsonSupport.output(out), value, this.schema.schema(), buffer);
		}
		catch (IOException | RuntimeException | Error ex) {
			throw FormatErrors.encodeFailure(name(), ex);
		}
		finally {
			buffer.clear();
		}
		this.sizeHint.written(out.writerIndex() - start);
	}

	@Override
	public T decode(ByteBuf in) {
		int length = in.readableBytes();
		try {
			Object holder = this.schema.newHolder();
			if (in.hasArray()) {
				ByteArrayInput input = new ByteArrayInput(in.array(), in.arrayOffset() + in.readerIndex(), length, true);
				this.schema.schema().mergeFrom(input, holder);
				input.checkLastTagWas(0);
			}
			else {
				ByteBufferInput input = new ByteBufferInput(in.nioBuffer(), true);
				this.schema.schema().mergeFrom(input, holder);
				input.checkLastTagWas(0);
			}
			T value = this.schema.finish(holder);
			in.skipBytes(length);
			return value;
		}
		catch (IndexOutOfBoundsException ex) {
			SerializationException failure = FormatErrors.error(name(), "a field length runs past the end of the "
					+ length + "-byte value (it is truncated, or a length field is corrupt)");
			failure.initCause(ex);
			throw failure;
		}
		catch (IOException | RuntimeException | Error ex) {
			throw FormatErrors.decodeFailure(name(), ex);
		}
	}

	@Override
	public int estimateSize(T value) {
		return this.sizeHint.estimate();
	}

	@Override
	public int formatId() {
		return FormatHeader.PROTOSTUFF;
	}

	@Override
	public boolean isText() {
		return false;
	}

	@Override
	public String name() {
		return "protostuff";
	}

	@Override
	public String toString() {
		return "ProtostuffFormat[" + this.schema.type().getTypeName() + "]";
	}

}
