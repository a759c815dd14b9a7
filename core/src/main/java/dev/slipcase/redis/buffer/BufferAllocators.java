package dev.slipcase.redis.buffer;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

import org.springframework.util.Assert;

/**
 * The allocators Slipcase takes scratch buffers from, one shared instance per
 * {@link AllocatorType} and heap/direct choice (pooled allocators must be shared to pay off).
 * <p>
 * Netty 4.2.17's {@link ByteBufAllocator#DEFAULT} is an {@link AdaptiveByteBufAllocator}, chosen in
 * {@code ByteBufUtil}'s static initialiser from the {@code io.netty.allocator.type} system property
 * ({@code adaptive} unless set to {@code pooled} or {@code unpooled}); its {@code buffer()} returns
 * direct buffers unless {@code -Dio.netty.noPreferDirect=true} is set or Netty cannot reliably free
 * direct memory on this JVM ({@code PlatformDependent.canReliabilyFreeDirectBuffers()}).
 * {@link #defaultAllocator()} is that instance, also Lettuce's default.
 * <p>
 * Allocators only hand buffers out: the caller of {@code buffer(...)} owns each buffer and is
 * responsible for releasing it. This class is thread-safe.
 */
public final class BufferAllocators {

	private BufferAllocators() {
	}

	/**
	 * Netty's {@link ByteBufAllocator#DEFAULT}: adaptive and direct-preferring in Netty 4.2 unless
	 * system properties say otherwise.
	 */
	public static ByteBufAllocator defaultAllocator() {
		return ByteBufAllocator.DEFAULT;
	}

	/**
	 * The shared allocator of the given type whose {@code buffer(...)} returns direct buffers when
	 * {@code direct} is {@code true} and heap buffers otherwise.
	 * @param type the kind of allocator, never {@code null}
	 * @param direct whether {@code buffer(...)} should prefer direct (off-heap) memory
	 * @return a shared, thread-safe allocator, never {@code null}
	 */
	public static ByteBufAllocator allocator(AllocatorType type, boolean direct) {
		Assert.notNull(type, "type must not be null");
		return switch (type) {
			case POOLED -> direct ? Pooled.DIRECT : Pooled.HEAP;
			case ADAPTIVE -> direct ? Adaptive.DIRECT : Adaptive.HEAP;
			case UNPOOLED -> direct ? Unpooled.DIRECT : Unpooled.HEAP;
		};
	}

	// Holders, so an allocator (and, for pooled ones, its arenas) exists only once asked for.

	private static final class Pooled {

		static final ByteBufAllocator DIRECT = new PooledByteBufAllocator(true);

		static final ByteBufAllocator HEAP = new PooledByteBufAllocator(false);

	}

	private static final class Adaptive {

		static final ByteBufAllocator DIRECT = new AdaptiveByteBufAllocator(true);

		static final ByteBufAllocator HEAP = new AdaptiveByteBufAllocator(false);

	}

	private static final class Unpooled {

		static final ByteBufAllocator DIRECT = new UnpooledByteBufAllocator(true);

		static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

	}

}
