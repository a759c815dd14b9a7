package dev.slipcase.redis.serializer.compression;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The kinds of buffer a compressor can be handed: heap and direct, pooled and not, and a
 * composite of two direct components (neither array-backed nor one contiguous region). The
 * caller releases what {@link #of} returns.
 */
enum BufferKind {

	HEAP {
		@Override
		ByteBuf allocate(int capacity) {
			return UnpooledByteBufAllocator.DEFAULT.heapBuffer(capacity);
		}
	},

	POOLED_HEAP {
		@Override
		ByteBuf allocate(int capacity) {
			return PooledByteBufAllocator.DEFAULT.heapBuffer(capacity);
		}
	},

	DIRECT {
		@Override
		ByteBuf allocate(int capacity) {
			return PooledByteBufAllocator.DEFAULT.directBuffer(capacity);
		}
	},

	COMPOSITE {
		@Override
		ByteBuf allocate(int capacity) {
			CompositeByteBuf composite = Unpooled.compositeBuffer();
			composite.addComponent(true, PooledByteBufAllocator.DEFAULT.directBuffer(8).writerIndex(0));
			composite.addComponent(true, PooledByteBufAllocator.DEFAULT.directBuffer(8).writerIndex(0));
			composite.capacity(Math.max(16, capacity));
			return composite.clear();
		}
	};

	/** An empty buffer of this kind. */
	abstract ByteBuf allocate(int capacity);

	/** A buffer of this kind holding {@code bytes}, all readable. */
	ByteBuf of(byte[] bytes) {
		ByteBuf buffer = allocate(bytes.length);
		if (this == COMPOSITE) {
			// make sure the content spans both components when it can
			CompositeByteBuf composite = Unpooled.compositeBuffer();
			int half = bytes.length / 2;
			composite.addComponent(true, PooledByteBufAllocator.DEFAULT.directBuffer(half).writeBytes(bytes, 0, half));
			composite.addComponent(true, PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length - half)
				.writeBytes(bytes, half, bytes.length - half));
			buffer.release();
			return composite;
		}
		return buffer.writeBytes(bytes);
	}

	static byte[] toBytes(ByteBuf buffer) {
		byte[] bytes = new byte[buffer.readableBytes()];
		buffer.getBytes(buffer.readerIndex(), bytes);
		return bytes;
	}

}
