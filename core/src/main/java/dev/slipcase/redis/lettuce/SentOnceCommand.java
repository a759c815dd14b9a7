package dev.slipcase.redis.lettuce;

import java.util.concurrent.CancellationException;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A command that reaches Redis at most once. Lettuce writes a command again after a reconnect when
 * it got no reply to it (at-least-once): right for a read, wrong for a write that must not be
 * applied twice, such as an increment. When Lettuce writes this command a second time without
 * having read a reply to the first, it writes {@code PING} in its place and the command fails with
 * an {@link UnacknowledgedWriteException}: whether the first write was applied is unknown, and it is
 * not applied again ({@link ReplayGuard}). A cluster redirection ({@code MOVED}, {@code ASK}) is a
 * reply saying the command was not applied, so the command is written again then, as usual.
 * {@code EXEC} is one too: Lettuce hands it the transaction's output through {@link #setOutput},
 * and a block whose {@code EXEC} reply was lost fails as unknown instead of sending a lone
 * {@code EXEC} after the reconnect. A command of a {@link TransactionBlock} goes out only with its
 * block.
 * <p>
 * Lettuce encodes a command on the connection's event loop, one write at a time, so the state here
 * needs no lock; {@link #complete()} runs on the same thread after the reply.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 * @param <T> the type of the reply
 */
public final class SentOnceCommand<K, V, T> extends AsyncCommand<K, V, T> {

	private final ReplayGuard<K, V, T> guard;

	private final String name;

	/** The block this command goes out with, or {@code null} for a command of its own; set once. */
	private volatile @Nullable TransactionBlock block;

	private final boolean opensBlock;

	private SentOnceCommand(ProtocolKeyword type, ReplayGuard<K, V, T> guard, CommandArgs<K, V> args,
			@Nullable TransactionBlock block, boolean opensBlock) {
		super(new Command<>(type, guard.output(), args));
		this.guard = guard;
		this.name = type.toString();
		this.block = block;
		this.opensBlock = opensBlock;
	}

	/**
	 * The command {@code type} with {@code args}, whose reply {@code output} reads.
	 * @param type the command, never {@code null}
	 * @param output reads the reply, never {@code null}
	 * @param args the arguments, never {@code null}
	 */
	public static <K, V, T> SentOnceCommand<K, V, T> of(ProtocolKeyword type, CommandOutput<K, V, T> output,
			CommandArgs<K, V> args) {
		return new SentOnceCommand<>(type, ReplayGuard.of(output), args, null, false);
	}

	/**
	 * A command of a {@link TransactionBlock}, which goes out only when the block does; the block's
	 * {@code MULTI} ({@code opensBlock}) decides that when it is first encoded.
	 */
	static <K, V, T> SentOnceCommand<K, V, T> inBlock(TransactionBlock block, boolean opensBlock, ProtocolKeyword type,
			CommandOutput<K, V, T> output, CommandArgs<K, V> args) {
		return new SentOnceCommand<>(type, ReplayGuard.of(output), args, block, opensBlock);
	}

	@Override
	public void encode(ByteBuf buf) {
		TransactionBlock block = this.block;
		if (block != null && !this.guard.isWritten() && !isWrittenWith(block)) {
			// never written: its reply is that PING's, and complete() fails it as given up
			this.guard.writePing(buf);
			return;
		}
		if (this.guard.replaceOnReplay(buf)) {
			return;
		}
		super.encode(buf);
	}

	/**
	 * Reads the reply with {@code output} from now on, still through the guard that swallows a
	 * replaced command's reply: Lettuce gives {@code EXEC} the output of its transaction this way
	 * when it dispatches it.
	 */
	@Override
	public void setOutput(CommandOutput<K, V, T> output) {
		this.guard.delegateTo(output);
	}

	/**
	 * Makes sure it is never written, unless it already was, atomically with its writing (a
	 * timeout may complete it on another thread while the event loop is about to write it): once
	 * this returns {@code true}, Redis cannot see it, and a write that comes later sends
	 * {@code PING} in its place.
	 * @return {@code true} when it was never written and now never will be
	 */
	public boolean abandonIfUnsent() {
		return this.guard.abandonIfUnsent();
	}

	/**
	 * Makes this command one of {@code block}'s, before it is dispatched.
	 * @return {@code false} when it already belongs to a block
	 */
	boolean joinBlock(TransactionBlock block) {
		if (this.block != null) {
			return false;
		}
		this.block = block;
		return true;
	}

	/** Whether this command goes out with its block (the block's MULTI decides, see {@link TransactionBlock}). */
	private boolean isWrittenWith(TransactionBlock block) {
		return this.opensBlock ? block.commitAtMulti() : block.isCommitted();
	}

	/**
	 * Fails the command with {@code ex}, or with an {@link UnacknowledgedWriteException} when
	 * {@code ex} is the failure of the connection it was written on (see {@link ReplayGuard#failureOf}).
	 */
	@Override
	public boolean completeExceptionally(Throwable ex) {
		return super.completeExceptionally(this.guard.failureOf(this.name, ex));
	}

	@Override
	public void complete() {
		if (!this.guard.isWritten()) {
			// a reply to a command never written is the PING of a block given up
			completeExceptionally(new CancellationException(this.name
					+ " was not sent: its caller gave up on its block before the block was written"));
			return;
		}
		UnacknowledgedWriteException unacknowledged = this.guard.unacknowledged(this.name);
		if (unacknowledged != null) {
			completeExceptionally(unacknowledged);
			return;
		}
		super.complete();
	}

}
