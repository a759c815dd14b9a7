package dev.slipcase.redis.buffer;

/**
 * The kinds of Netty allocator Slipcase can take its scratch buffers from.
 *
 * @see BufferAllocators#allocator(AllocatorType, boolean)
 */
public enum AllocatorType {

	/**
	 * Netty's jemalloc-style {@code PooledByteBufAllocator}: arenas and per-thread caches; the
	 * fastest for threads that allocate and release the same sizes over and over.
	 */
	POOLED,

	/**
	 * Netty 4.2's {@code AdaptiveByteBufAllocator}: size-class magazines that adapt to the sizes in
	 * use and keep less memory per thread than {@link #POOLED}; {@code ByteBufAllocator.DEFAULT}
	 * in Netty 4.2.
	 */
	ADAPTIVE,

	/**
	 * Netty's {@code UnpooledByteBufAllocator}: a fresh buffer on every call, as a baseline and for
	 * memory-constrained applications.
	 */
	UNPOOLED

}
