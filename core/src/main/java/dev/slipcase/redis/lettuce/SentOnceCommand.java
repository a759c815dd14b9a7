package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
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
 * not applied again. A cluster redirection ({@code MOVED}, {@code ASK}) is a reply saying the command
 * was not applied, so the command is written again then, as usual.
 * <p>
 * Lettuce encodes a command on the connection's event loop, one write at a time, so the state here
 * needs no lock; {@link #complete()} runs on the same thread after the reply.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 * @param <T> the type of the reply
 */
public final class SentOnceCommand<K, V, T> extends AsyncCommand<K, V, T> {

	private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

	private final RedirectWatchingOutput<K, V, T> output;

	private final String name;

	private boolean written;

	/** The block this command goes out with, or {@code null} for a command of its own; set once. */
	private volatile @Nullable TransactionBlock block;

	private final boolean opensBlock;

	/** Set when the command was replaced by {@code PING} because its block was given up. */
	private boolean abandoned;

	private SentOnceCommand(Command<K, V, T> command, RedirectWatchingOutput<K, V, T> output,
			@Nullable TransactionBlock block, boolean opensBlock) {
		super(command);
		this.output = output;
		this.name = command.getType().toString();
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
		RedirectWatchingOutput<K, V, T> watching = new RedirectWatchingOutput<>(output);
		return new SentOnceCommand<>(new Command<>(type, watching, args), watching, null, false);
	}

	/**
	 * A command of a {@link TransactionBlock}, which goes out only when the block does; the block's
	 * {@code MULTI} ({@code opensBlock}) decides that when it is first encoded.
	 */
	static <K, V, T> SentOnceCommand<K, V, T> inBlock(TransactionBlock block, boolean opensBlock, ProtocolKeyword type,
			CommandOutput<K, V, T> output, CommandArgs<K, V> args) {
		RedirectWatchingOutput<K, V, T> watching = new RedirectWatchingOutput<>(output);
		return new SentOnceCommand<>(new Command<>(type, watching, args), watching, block, opensBlock);
	}

	@Override
	public void encode(ByteBuf buf) {
		TransactionBlock block = this.block;
		if (block != null && !this.written && !isWrittenWith(block)) {
			this.abandoned = true;
			this.output.discarding = true;
			buf.writeBytes(PING);
			return;
		}
		if (this.written && !this.output.redirected) {
			this.output.discarding = true;
			buf.writeBytes(PING);
			return;
		}
		this.written = true;
		this.output.redirected = false;
		super.encode(buf);
	}

	/**
	 * Reads the reply with {@code output} from now on, still through the watch that swallows a
	 * replaced command's reply: Lettuce gives {@code EXEC} the output of its transaction this way
	 * when it dispatches it.
	 */
	@Override
	public void setOutput(CommandOutput<K, V, T> output) {
		this.output.delegate = output;
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

	@Override
	public void complete() {
		if (this.abandoned) {
			completeExceptionally(new CancellationException(this.name
					+ " was not sent: its caller gave up on its block before the block was written"));
			return;
		}
		if (this.output.discarding) {
			completeExceptionally(new UnacknowledgedWriteException("Redis did not reply to " + this.name
					+ " before the connection was lost, and it was not sent again after the reconnect, because the "
					+ "first write may have been applied: its outcome is unknown"));
			return;
		}
		super.complete();
	}

	/**
	 * Hands the reply to the command's own output and notes a redirection; once the command was
	 * replaced by {@code PING}, swallows that reply instead.
	 */
	private static final class RedirectWatchingOutput<K, V, T> extends CommandOutput<K, V, T> {

		private CommandOutput<K, V, T> delegate;

		private boolean redirected;

		private boolean discarding;

		@SuppressWarnings("unchecked")
		RedirectWatchingOutput(CommandOutput<K, V, T> delegate) {
			// the codec is never used: every method hands over to the delegate
			super((RedisCodec<K, V>) (RedisCodec<?, ?>) ByteArrayCodec.INSTANCE, null);
			this.delegate = delegate;
		}

		@Override
		public T get() {
			return this.delegate.get();
		}

		@Override
		public void set(@Nullable ByteBuffer bytes) {
			if (!this.discarding) {
				this.delegate.set(bytes);
			}
		}

		@Override
		public void setSingle(@Nullable ByteBuffer bytes) {
			if (!this.discarding) {
				this.delegate.setSingle(bytes);
			}
		}

		@Override
		public void setBigNumber(@Nullable ByteBuffer bytes) {
			if (!this.discarding) {
				this.delegate.setBigNumber(bytes);
			}
		}

		@Override
		public void set(long integer) {
			if (!this.discarding) {
				this.delegate.set(integer);
			}
		}

		@Override
		public void set(double number) {
			if (!this.discarding) {
				this.delegate.set(number);
			}
		}

		@Override
		public void set(boolean value) {
			if (!this.discarding) {
				this.delegate.set(value);
			}
		}

		@Override
		public void setError(@Nullable ByteBuffer error) {
			setError((error != null) ? StandardCharsets.UTF_8.decode(error).toString() : null);
		}

		@Override
		public void setError(@Nullable String error) {
			if (error != null && (error.startsWith("MOVED ") || error.startsWith("ASK "))) {
				this.redirected = true;
			}
			if (!this.discarding) {
				this.delegate.setError(error);
			}
		}

		@Override
		public boolean hasError() {
			return this.delegate.hasError();
		}

		@Override
		public @Nullable String getError() {
			return this.delegate.getError();
		}

		@Override
		public void complete(int depth) {
			if (!this.discarding) {
				this.delegate.complete(depth);
			}
		}

		@Override
		public void multi(int count) {
			if (!this.discarding) {
				this.delegate.multi(count);
			}
		}

		@Override
		public void multiArray(int count) {
			if (!this.discarding) {
				this.delegate.multiArray(count);
			}
		}

		@Override
		public void multiPush(int count) {
			if (!this.discarding) {
				this.delegate.multiPush(count);
			}
		}

		@Override
		public void multiMap(int count) {
			if (!this.discarding) {
				this.delegate.multiMap(count);
			}
		}

		@Override
		public void multiSet(int count) {
			if (!this.discarding) {
				this.delegate.multiSet(count);
			}
		}

		@Override
		public String toString() {
			return this.delegate.toString();
		}

	}

}
