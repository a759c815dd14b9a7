package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.HeldReply;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import io.lettuce.core.output.CommandOutput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

/**
 * A bulk reply copied from Lettuce's receive buffer into a pooled buffer and handed to the caller
 * as a {@link ValueLease}. The buffer has exactly one owner at every moment: this output until
 * {@link #get()} turns it into the lease the command completes with, the caller from then on; when
 * the command fails or is cancelled instead, {@link #abandon()} (called by the command's
 * completion) releases it, also when the reply arrives after the cancellation.
 */
final class LeaseOutput extends CommandOutput<String, EncodedValue, @Nullable ValueLease> implements HeldReply {

	private static final Object ABANDONED = new Object();

	private final ByteBufAllocator allocator;

	private final SlipcaseObserver observer;

	private static final AtomicReferenceFieldUpdater<LeaseOutput, Object> STATE = AtomicReferenceFieldUpdater
		.newUpdater(LeaseOutput.class, Object.class, "state");

	/** {@code null}, a {@link ByteBuf}, a {@link ValueLease} or {@link #ABANDONED}. */
	private volatile @Nullable Object state;

	LeaseOutput(ByteBufAllocator allocator, SlipcaseObserver observer) {
		super(EncodedValueCodec.INSTANCE, null);
		this.allocator = allocator;
		this.observer = observer;
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (bytes == null) {
			return;
		}
		ByteBuf copy = HeldReply.copy(this.allocator, bytes);
		if (!STATE.compareAndSet(this, null, copy)) {
			copy.release();
		}
	}

	@Override
	public @Nullable ValueLease get() {
		Object current = this.state;
		if (current instanceof ValueLease lease) {
			return lease;
		}
		if (current instanceof ByteBuf bytes) {
			ValueLease lease = ValueLease.of(bytes, this.observer);
			if (STATE.compareAndSet(this, bytes, lease)) {
				return lease;
			}
		}
		return null;
	}

	@Override
	public boolean handedOver(@Nullable Object result) {
		return result != null && result == this.state;
	}

	@Override
	public void abandon() {
		Object previous = STATE.getAndSet(this, ABANDONED);
		if (previous instanceof ByteBuf bytes) {
			bytes.release();
		}
		else if (previous instanceof ValueLease lease) {
			lease.close();
		}
	}

}
