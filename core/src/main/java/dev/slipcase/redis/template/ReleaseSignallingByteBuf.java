package dev.slipcase.redis.template;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;

/**
 * A buffer over one other, owned as that one was, that runs an action once its last reference is
 * released, by whoever holds it then: how a download learns that a chunk it handed on has left the
 * process (WebFlux released it once written to the socket), whatever the subscriber requested.
 * Owns {@code content}, which it releases first; the action must not throw and must not block.
 */
final class ReleaseSignallingByteBuf extends CompositeByteBuf {

	private final Runnable onRelease;

	/** Takes over the caller's reference to {@code content}. */
	ReleaseSignallingByteBuf(ByteBuf content, Runnable onRelease) {
		super(content.alloc(), content.isDirect(), 1, content);
		this.onRelease = onRelease;
	}

	@Override
	protected void deallocate() {
		try {
			super.deallocate();
		}
		finally {
			this.onRelease.run();
		}
	}

}
