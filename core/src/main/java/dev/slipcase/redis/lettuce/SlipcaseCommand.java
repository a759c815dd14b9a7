package dev.slipcase.redis.lettuce;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.HeldReply;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * The command every Slipcase template sends: Lettuce's {@code AsyncCommand}, a
 * {@linkplain #write write} reaching Redis at most once ({@link ReplayGuard}), and
 * {@link CommandStep}s that each do one more job when it ends, whichever way it ends (a reply, an
 * error reply, a failure, a cancellation, or a caller completing it itself). Steps run in the order
 * added, before the future completes, so that a caller woken by it finds their work done. Steps are
 * added before the command is dispatched, which publishes them to the event loop.
 * <p>
 * Owns the pooled buffers handed to it with {@link #owning}, as a Netty channel owns a message
 * written to it, and the copy of the reply a {@link HeldReply} output holds unless that copy reached
 * the caller: it releases them once it is done, when Lettuce no longer encodes it.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 * @param <T> the type of the reply
 */
public final class SlipcaseCommand<K, V, T> extends AsyncCommand<K, V, T> {

	private static final CommandStep[] NO_STEPS = {};

	/** The commands that change nothing, which Lettuce may write again after a reconnect. */
	private static final Set<CommandType> READS = EnumSet.of(CommandType.GET, CommandType.MGET, CommandType.HGET,
			CommandType.HMGET, CommandType.GETRANGE, CommandType.EXISTS, CommandType.STRLEN, CommandType.PTTL,
			CommandType.TTL);

	/** Keeps a write from reaching Redis twice, or {@code null} for a read. */
	private final @Nullable ReplayGuard<K, V, T> guard;

	private CommandStep[] steps = NO_STEPS;

	/** The {@link EncodedValue} or {@code List} of them this command sends and releases, or {@code null}. */
	private @Nullable Object owned;

	private final @Nullable HeldReply heldReply;

	private SlipcaseCommand(ProtocolKeyword type, CommandOutput<K, V, T> output, @Nullable CommandArgs<K, V> args,
			@Nullable ReplayGuard<K, V, T> guard, int replies) {
		super(new Command<>(type, (guard != null) ? guard : output, args), replies);
		this.guard = guard;
		this.heldReply = (output instanceof HeldReply held) ? held : null;
	}

	/**
	 * A command that changes nothing: Lettuce writes it again after a reconnect when it got no
	 * reply to it (at least once).
	 * @param type the command, never {@code null}
	 * @param output reads the reply, never {@code null}
	 * @param args the arguments, never {@code null}
	 */
	public static <K, V, T> SlipcaseCommand<K, V, T> read(ProtocolKeyword type, CommandOutput<K, V, T> output,
			CommandArgs<K, V> args) {
		return new SlipcaseCommand<>(type, output, args, null, 1);
	}

	/**
	 * A command that reaches Redis at most once: when Lettuce would write it again after a
	 * reconnect without having read a reply to it, it fails with an
	 * {@link UnacknowledgedWriteException} instead, and so does one whose connection failed after it
	 * was written ({@link ReplayGuard}).
	 * @param type the command, never {@code null}
	 * @param output reads the reply, never {@code null}
	 * @param args the arguments, never {@code null}
	 */
	public static <K, V, T> SlipcaseCommand<K, V, T> write(ProtocolKeyword type, CommandOutput<K, V, T> output,
			CommandArgs<K, V> args) {
		return new SlipcaseCommand<>(type, output, args, ReplayGuard.of(output), 1);
	}

	/**
	 * The {@code MULTI} (when {@code opensBlock}) or {@code EXEC} of {@code block}: goes out only
	 * with its block, and has no arguments.
	 */
	static <K, V, T> SlipcaseCommand<K, V, T> delimiting(TransactionBlock block, boolean opensBlock,
			BlockKeyword type, CommandOutput<K, V, T> output) {
		return new SlipcaseCommand<>(type, output, null, ReplayGuard.inBlock(output, block, opensBlock), 1);
	}

	/**
	 * A write queued inside {@code block}, after its {@code MULTI}: goes out only with its block, and
	 * Redis answers it twice, {@code QUEUED} (which is not its reply) and then its element of
	 * {@code EXEC}'s reply; an error instead of {@code QUEUED} stays in its output, and its block's
	 * {@code EXEC} fails.
	 */
	static <K, V, T> SlipcaseCommand<K, V, T> queued(TransactionBlock block, ProtocolKeyword type,
			CommandOutput<K, V, T> output, CommandArgs<K, V> args) {
		return new SlipcaseCommand<>(type, output, args, ReplayGuard.inBlock(output, block, false), 2);
	}

	/** Whether {@code type} is a read that changes nothing, which a caller may send as a {@link #read}. */
	public static boolean changesNothing(ProtocolKeyword type) {
		return type instanceof CommandType command && READS.contains(command);
	}

	/**
	 * Adds {@code step}, run after the steps added before it. Only before the command is dispatched.
	 * @return this command
	 */
	public SlipcaseCommand<K, V, T> with(CommandStep step) {
		CommandStep[] more = Arrays.copyOf(this.steps, this.steps.length + 1);
		more[this.steps.length] = step;
		this.steps = more;
		return this;
	}

	/**
	 * Takes ownership of {@code value}, which this command sends: released once the command is done.
	 * Only before the command is dispatched, at most once.
	 * @return this command
	 */
	public SlipcaseCommand<K, V, T> owning(EncodedValue value) {
		this.owned = value;
		return this;
	}

	/**
	 * Takes ownership of {@code values}, which this command sends: each released once the command
	 * is done. Only before the command is dispatched, at most once.
	 * @return this command
	 */
	public SlipcaseCommand<K, V, T> owning(List<EncodedValue> values) {
		this.owned = values;
		return this;
	}

	/** The output that reads the reply: never the {@link ReplayGuard}'s, which hands the reply to it. */
	public CommandOutput<K, V, T> replyOutput() {
		return (this.guard != null) ? this.guard.delegate() : getOutput();
	}

	/** The bytes of the values this command {@linkplain #owning owns}, {@code 0} when none. */
	public long sentBytes() {
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

	/**
	 * Makes sure a write is never written, unless it already was, atomically with its writing (a
	 * timeout may complete it on another thread while the event loop is about to write it): once
	 * this returns {@code true}, Redis cannot see it.
	 * @return {@code true} when it was never written and now never will be; {@code false} for a
	 * read, which Lettuce may write whatever happens
	 */
	public boolean abandonIfUnsent() {
		return this.guard != null && this.guard.abandonIfUnsent();
	}

	@Override
	public void encode(ByteBuf buf) {
		if (this.guard != null && this.guard.replaceOnReplay(buf)) {
			return;
		}
		super.encode(buf);
	}

	/** Reads the reply with {@code output} from now on, through the guard of a write. */
	@Override
	public void setOutput(CommandOutput<K, V, T> output) {
		if (this.guard != null) {
			this.guard.delegateTo(output);
		}
		else {
			super.setOutput(output);
		}
	}

	/** Lettuce read the reply: completes with it, or fails when {@code PING} went in the command's place. */
	@Override
	public void complete() {
		Exception instead = (this.guard != null) ? this.guard.failureOnReply(getType()) : null;
		if (instead != null) {
			completeExceptionally(instead);
			return;
		}
		super.complete();
	}

	/** Completes with the reply, or fails with an error reply, the steps around it. */
	@Override
	protected void completeResult() {
		CommandOutput<K, V, T> output = getOutput();
		if (output == null || !output.hasError()) {
			super.completeResult(); // complete(T), below
			return;
		}
		// Lettuce makes the exception the future fails with (a subclass for some errors); the steps
		// see what it says
		String error = output.getError();
		beforeCompletion(new RedisCommandExecutionException((error != null) ? error : "ERR"));
		super.completeResult();
		release();
	}

	@Override
	public boolean complete(T value) {
		beforeCompletion(null);
		boolean completed = super.complete(value);
		release();
		return completed;
	}

	/**
	 * Fails the command with {@code ex}, or, for a write written on a connection that {@code ex}
	 * says failed, with an {@link UnacknowledgedWriteException} ({@link ReplayGuard#failureOf}).
	 */
	@Override
	public boolean completeExceptionally(Throwable ex) {
		Throwable failure = (this.guard != null) ? this.guard.failureOf(getType(), ex) : ex;
		beforeCompletion(failure);
		boolean completed = super.completeExceptionally(failure);
		release();
		return completed;
	}

	@Override
	public boolean cancel(boolean mayInterruptIfRunning) {
		beforeCompletion(new CancellationException());
		boolean cancelled = super.cancel(mayInterruptIfRunning);
		release();
		return cancelled;
	}

	private void beforeCompletion(@Nullable Throwable failure) {
		if (isDone()) {
			return;
		}
		for (CommandStep step : this.steps) {
			step.beforeCompletion(failure);
		}
	}

	/**
	 * Releases what this command owns once it is done, when Lettuce no longer encodes it; idempotent,
	 * as it may end on two threads at once.
	 */
	private void release() {
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
		if (this.heldReply != null && (isCompletedExceptionally() || !this.heldReply.handedOver(getNow(null)))) {
			this.heldReply.abandon();
		}
	}

}
