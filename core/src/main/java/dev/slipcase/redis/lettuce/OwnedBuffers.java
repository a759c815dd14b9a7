package dev.slipcase.redis.lettuce;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.HeldReply;
import org.jspecify.annotations.Nullable;

/**
 * The pooled buffers a command owns, released once it is done: the {@link EncodedValue}s it sends,
 * and the copy of its reply a {@link HeldReply} output holds unless the reply reached the caller.
 * Reference count ownership of each is transferred to this step when it is made; releasing is
 * idempotent, so a command ending on two threads at once releases each buffer once.
 */
public final class OwnedBuffers implements CommandStep {

	/** An {@link EncodedValue}, a {@code List} of them, or {@code null}. */
	private final @Nullable Object values;

	private final @Nullable HeldReply reply;

	private OwnedBuffers(@Nullable Object values, @Nullable HeldReply reply) {
		this.values = values;
		this.reply = reply;
	}

	/** Owns {@code value}, which the command sends. */
	public static OwnedBuffers of(EncodedValue value) {
		return new OwnedBuffers(value, null);
	}

	/** Owns {@code values}, which the command sends. */
	public static OwnedBuffers of(List<EncodedValue> values) {
		return new OwnedBuffers(values, null);
	}

	/** Owns the reply {@code reply} may hold, until the caller takes it. */
	public static OwnedBuffers of(HeldReply reply) {
		return new OwnedBuffers(null, reply);
	}

	/** The bytes of the values the command sends, {@code 0} when none. */
	public long sentBytes() {
		if (this.values instanceof EncodedValue value) {
			return value.size();
		}
		long bytes = 0;
		if (this.values instanceof List<?> values) {
			for (Object value : values) {
				bytes += ((EncodedValue) value).size();
			}
		}
		return bytes;
	}

	/** Nothing yet: Lettuce may still be encoding the values until the command is done. */
	@Override
	public void beforeCompletion(@Nullable Throwable failure) {
	}

	@Override
	public void afterCompletion(CompletableFuture<?> done) {
		if (this.values instanceof EncodedValue value) {
			value.release();
		}
		else if (this.values instanceof List<?> values) {
			for (Object value : values) {
				((EncodedValue) value).release();
			}
		}
		if (this.reply != null && (done.isCompletedExceptionally() || !this.reply.handedOver(done.getNow(null)))) {
			this.reply.abandon();
		}
	}

}
