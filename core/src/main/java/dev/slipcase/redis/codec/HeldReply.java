package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

/**
 * A command output that may hold a pooled copy of its reply until the caller takes it. The
 * command it belongs to calls {@link #abandon()} when it fails or is cancelled, or completes
 * without handing the copy over; {@link #abandon()} releases the copy, also one that arrives
 * afterwards, and is idempotent.
 */
public interface HeldReply {

	/** Releases whatever this output holds or will receive: the caller never gets it. */
	void abandon();

	/**
	 * Whether {@code result}, what the command completed with, is what this output handed over, the
	 * caller owning the copy from then on; not so for a value the caller completed the command
	 * with itself.
	 */
	boolean handedOver(@Nullable Object result);

	/**
	 * A pooled copy of the remaining bytes of {@code reply}, which is left as Lettuce handed it
	 * over. The caller owns the copy and releases it.
	 */
	static ByteBuf copy(ByteBufAllocator allocator, ByteBuffer reply) {
		ByteBuf copy = allocator.directBuffer(reply.remaining());
		int position = reply.position();
		copy.writeBytes(reply);
		reply.position(position);
		return copy;
	}

}
