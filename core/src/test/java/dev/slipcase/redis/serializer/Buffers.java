package dev.slipcase.redis.serializer;

import java.util.List;
import java.util.function.Function;

import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;

/**
 * The kinds of {@link ByteBuf} a format must work on: heap and direct, pooled and not, array-backed
 * and not (a composite of two direct components), each with bytes before the readable region.
 */
public enum Buffers {

	UNPOOLED_HEAP, POOLED_HEAP, POOLED_DIRECT, COMPOSITE_DIRECT;

	/** A new buffer holding {@code bytes} as its readable bytes; the caller releases it. */
	public ByteBuf holding(byte[] bytes) {
		ByteBuf buffer = empty();
		buffer.writeBytes(new byte[] { 9, 9, 9 });
		buffer.skipBytes(3);
		buffer.writeBytes(bytes);
		return buffer;
	}

	/** A new, empty buffer; the caller releases it. */
	public ByteBuf empty() {
		ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
		return switch (this) {
			case UNPOOLED_HEAP -> Unpooled.buffer(16);
			case POOLED_HEAP -> pooled.heapBuffer(16);
			case POOLED_DIRECT -> pooled.directBuffer(16);
			case COMPOSITE_DIRECT -> {
				CompositeByteBuf composite = pooled.compositeDirectBuffer();
				composite.addComponent(true, pooled.directBuffer(2));
				yield composite;
			}
		};
	}

	/** Runs {@code action} on a buffer holding {@code bytes} and releases it. */
	public <R> R with(byte[] bytes, Function<ByteBuf, R> action) {
		ByteBuf buffer = holding(bytes);
		try {
			return action.apply(buffer);
		}
		finally {
			buffer.release();
		}
	}

	/** Encodes {@code value} into a buffer of this kind and returns the bytes written. */
	public <T> byte[] encode(ValueFormat<T> format, T value) {
		ByteBuf buffer = empty();
		try {
			format.encode(value, buffer);
			byte[] bytes = new byte[buffer.readableBytes()];
			buffer.readBytes(bytes);
			return bytes;
		}
		finally {
			buffer.release();
		}
	}

	public static List<Buffers> all() {
		return List.of(values());
	}

}
