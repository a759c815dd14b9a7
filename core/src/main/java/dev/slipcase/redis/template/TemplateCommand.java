package dev.slipcase.redis.template;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.ReplayGuard;
import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.metrics.ObservedCall;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A command of the template that owns its pooled buffers: the {@link EncodedValue}s it sends are
 * released, and a {@link HeldReply}'s copy of the reply is released unless it reached the caller, whichever
 * way the command ends (a reply, a failure, a cancellation, or a caller completing the future
 * itself). Lettuce never writes a command that is done, so nothing it may still encode is freed
 * (see {@link EncodedValue} for the cancel-while-encoding race). A write whose reply was lost with
 * its connection is not written again after the reconnect, unless the template says
 * {@link UnacknowledgedWrites#RESEND}: it fails as unknown ({@link ReplayGuard}).
 */
final class TemplateCommand<T> extends AsyncCommand<String, EncodedValue, T> {

	/** The commands Lettuce may write again after a reconnect: they change nothing. */
	private static final Set<CommandType> READS = EnumSet.of(CommandType.GET, CommandType.MGET, CommandType.HGET,
			CommandType.HMGET, CommandType.GETRANGE, CommandType.EXISTS, CommandType.STRLEN, CommandType.PTTL,
			CommandType.TTL);

	private final @Nullable Object owned;

	/** The command's own output, which the command may read its reply through a {@link ReplayGuard} into. */
	private final CommandOutput<String, EncodedValue, T> output;

	/** Keeps a write from being written again after a reconnect, or {@code null} for a read or RESEND. */
	private final @Nullable ReplayGuard<String, EncodedValue, T> guard;

	private final @Nullable HeldReply held;

	/** Set before the command is dispatched, which publishes it to the event loop. */
	private @Nullable ObservedCall observation;

	/**
	 * @param owned an {@link EncodedValue}, a {@code List} of them, or {@code null}; reference
	 * count ownership is transferred to this command
	 * @param unacknowledgedWrites whether a write (any command but a read) whose reply was lost is
	 * written again after a reconnect
	 */
	TemplateCommand(CommandType type, CommandOutput<String, EncodedValue, T> output,
			CommandArgs<String, EncodedValue> args, @Nullable Object owned, UnacknowledgedWrites unacknowledgedWrites) {
		this(type, output, args, owned,
				(unacknowledgedWrites == UnacknowledgedWrites.FAIL && !READS.contains(type)) ? ReplayGuard.of(output) : null);
	}

	private TemplateCommand(CommandType type, CommandOutput<String, EncodedValue, T> output,
			CommandArgs<String, EncodedValue> args, @Nullable Object owned,
			@Nullable ReplayGuard<String, EncodedValue, T> guard) {
		super(new Command<>(type, (guard != null) ? guard.output() : output, args));
		this.owned = owned;
		this.output = output;
		this.guard = guard;
		this.held = (output instanceof HeldReply heldReply) ? heldReply : null;
	}

	@Override
	public void encode(ByteBuf buf) {
		if (this.guard != null && this.guard.replaceOnReplay(buf)) {
			return;
		}
		super.encode(buf);
	}

	@Override
	public void complete() {
		UnacknowledgedWriteException unacknowledged = (this.guard != null)
				? this.guard.unacknowledged(getType().toString()) : null;
		if (unacknowledged != null) {
			completeExceptionally(unacknowledged);
			return;
		}
		super.complete();
	}

	/**
	 * Stops {@code call} when this command completes, fails or is cancelled, before a caller
	 * waiting for it wakes up: a sync call's observation ends before the call returns.
	 */
	void observeWith(ObservedCall call) {
		call.storedBytes(ownedBytes());
		this.observation = call;
	}

	/** The bytes of the values this command sends, {@code 0} when none. */
	long ownedBytes() {
		if (this.owned instanceof EncodedValue value) {
			return value.size();
		}
		long bytes = 0;
		if (this.owned instanceof List<?> values) {
			for (Object value : values) {
				bytes += ((EncodedValue) value).size();
			}
		}
		return bytes;
	}

	@Override
	public boolean complete(T value) {
		stopObservation(null);
		boolean completed = super.complete(value);
		releaseWhenDone();
		return completed;
	}

	@Override
	protected void completeResult() {
		super.completeResult();
		releaseWhenDone();
	}

	/**
	 * Fails the command with {@code ex}, or, for a write written on a connection that {@code ex}
	 * says failed, with an {@link UnacknowledgedWriteException} ({@link ReplayGuard#failureOf}).
	 */
	@Override
	public boolean completeExceptionally(Throwable ex) {
		Throwable failure = (this.guard != null) ? this.guard.failureOf(getType().toString(), ex) : ex;
		stopObservation(failure);
		boolean completed = super.completeExceptionally(failure);
		releaseWhenDone();
		return completed;
	}

	@Override
	public boolean cancel(boolean mayInterruptIfRunning) {
		stopObservation(new CancellationException());
		boolean cancelled = super.cancel(mayInterruptIfRunning);
		releaseWhenDone();
		return cancelled;
	}

	private void stopObservation(@Nullable Throwable failure) {
		ObservedCall call = this.observation;
		if (call == null || isDone()) {
			return;
		}
		if (failure == null && this.output instanceof CountsBytesRead read) {
			call.storedBytes(read.bytesRead());
		}
		call.stop(failure);
	}

	private void releaseWhenDone() {
		if (!isDone()) {
			return;
		}
		if (this.owned instanceof EncodedValue value) {
			value.release();
		}
		else if (this.owned instanceof List<?> values) {
			for (Object value : values) {
				((EncodedValue) value).release();
			}
		}
		if (this.held != null && (isCompletedExceptionally() || getNow(null) == null)) {
			this.held.abandon();
		}
	}

}
