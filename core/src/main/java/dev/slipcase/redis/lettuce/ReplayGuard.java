package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * What makes a {@link SlipcaseCommand} reach Redis at most once. Lettuce writes a command again
 * after a reconnect when it got no reply to it (at-least-once): right for a read, wrong for a write
 * that must not be applied twice, such as an increment. The guard is the output the command reads
 * its reply through (it hands the reply to the command's own, noting a redirection), and the
 * command asks {@link #replaceOnReplay} first thing in its {@code encode}: the
 * second time, this writes {@code PING} in its place, swallows that reply, and
 * {@link #failureOnReply} gives the failure to complete the command with, the write's outcome being
 * unknown. A cluster redirection ({@code MOVED}, {@code ASK}) is a reply saying the command was not
 * applied, so a redirected command is written again as usual. A command of a
 * {@link TransactionBlock} goes out only with its block: the block's {@code MULTI} decides when it
 * is first encoded.
 * <p>
 * Lettuce encodes a command on the connection's event loop and completes it there after its reply,
 * so the state here needs no lock, {@link #abandonIfUnsent()} aside.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 * @param <T> the type of the reply
 */
final class ReplayGuard<K, V, T> extends CommandOutput<K, V, T> {

	private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

	/** The command's own output, which this hands the reply to. */
	private CommandOutput<K, V, T> delegate;

	/** A reply said the command was redirected ({@code MOVED}, {@code ASK}): not applied. */
	private boolean redirected;

	/** {@code PING} went in the command's place: its reply is swallowed. */
	private boolean discarding;

	/** Never written yet. */
	private static final int UNSENT = 0;

	/** Written (its own bytes, at least once). */
	private static final int SENT = 1;

	/** Given up before it was written: never will be. */
	private static final int ABANDONED = 2;

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<ReplayGuard> STATE = AtomicIntegerFieldUpdater
		.newUpdater(ReplayGuard.class, "state");

	/** {@link #UNSENT}, {@link #SENT} or {@link #ABANDONED}; changed atomically, from any thread. */
	private volatile int state;

	/** The block the command goes out with, or {@code null} for a command of its own. */
	private final @Nullable TransactionBlock block;

	/** Whether the command is its block's {@code MULTI}, which decides for the block. */
	private final boolean opensBlock;

	@SuppressWarnings("unchecked")
	private ReplayGuard(CommandOutput<K, V, T> output, @Nullable TransactionBlock block, boolean opensBlock) {
		// the codec is never used: every method hands over to the delegate
		super((RedisCodec<K, V>) (RedisCodec<?, ?>) ByteArrayCodec.INSTANCE, null);
		this.delegate = output;
		this.block = block;
		this.opensBlock = opensBlock;
	}

	/**
	 * A guard for a command whose reply {@code output} reads.
	 * @param output the command's own output, never {@code null}
	 */
	static <K, V, T> ReplayGuard<K, V, T> of(CommandOutput<K, V, T> output) {
		return new ReplayGuard<>(output, null, false);
	}

	/**
	 * A guard for a command of {@code block}: its {@code MULTI} when {@code opensBlock}, else a
	 * command after it (one queued, or {@code EXEC}).
	 */
	static <K, V, T> ReplayGuard<K, V, T> inBlock(CommandOutput<K, V, T> output, TransactionBlock block,
			boolean opensBlock) {
		return new ReplayGuard<>(output, block, opensBlock);
	}

	/** The command's own output, which the guard hands the reply to. */
	CommandOutput<K, V, T> delegate() {
		return this.delegate;
	}

	/** Replaces the command's own output. */
	void delegateTo(CommandOutput<K, V, T> output) {
		this.delegate = output;
	}

	/**
	 * Called first in the command's {@code encode}: on a replay of a command written before and not
	 * redirected, of one {@link #abandonIfUnsent() abandoned}, or of one whose block does not go
	 * out, writes {@code PING} into {@code buf} in its place and returns {@code true}, and the
	 * command must write nothing else; otherwise notes the write and returns {@code false}.
	 */
	boolean replaceOnReplay(ByteBuf buf) {
		int now = this.state;
		TransactionBlock block = this.block;
		if (block != null && now != SENT && !(this.opensBlock ? block.commitAtMulti() : block.isCommitted())) {
			writePing(buf); // never written: its reply is that PING's, and it fails as given up
			return true;
		}
		if ((now == SENT && !this.redirected) || now == ABANDONED
				|| (now == UNSENT && !STATE.compareAndSet(this, UNSENT, SENT))) {
			writePing(buf);
			return true;
		}
		this.redirected = false;
		return false;
	}

	/**
	 * Makes sure the command is never written, unless it already was: from any thread, atomically
	 * with {@link #replaceOnReplay}.
	 * @return {@code true} when Redis cannot see it (never written, and now never will be)
	 */
	boolean abandonIfUnsent() {
		return STATE.compareAndSet(this, UNSENT, ABANDONED) || this.state == ABANDONED;
	}

	/** Writes {@code PING} in the command's place and swallows its reply. */
	private void writePing(ByteBuf buf) {
		this.discarding = true;
		buf.writeBytes(PING);
	}

	/**
	 * The failure to complete the command with once its reply came, when {@code PING} went in its
	 * place; {@code null} when the reply is the command's own.
	 * @param name the command, named in the message
	 */
	@Nullable Exception failureOnReply(ProtocolKeyword name) {
		if (!this.discarding) {
			return null;
		}
		if (this.state != SENT) {
			return new CancellationException(
					name + " was not sent: its caller gave up on it (or on its block) before it was written");
		}
		return new UnacknowledgedWriteException("Redis did not reply to " + name + " before the connection was lost, "
				+ "and it was not sent again after the reconnect, because the first write may have been applied: "
				+ "its outcome is unknown");
	}

	/**
	 * What to fail the command with when Lettuce fails it with {@code failure}: an
	 * {@link UnacknowledgedWriteException} when the command was written and {@code failure} is its
	 * connection's, {@code failure} itself otherwise. Lettuce fails the oldest command awaiting a
	 * reply with the {@link IOException} that broke the connection (a reset, when Redis died with
	 * requests it had not read), so that command's reply is lost and whether Redis applied it is
	 * unknown, as for a command replaced on a replay; a command never written keeps its failure,
	 * since Redis cannot have applied it.
	 * @param name the command, named in the message
	 * @param failure what Lettuce completes the command with, never {@code null}
	 */
	Throwable failureOf(ProtocolKeyword name, Throwable failure) {
		if (this.state != SENT || !(failure instanceof IOException)) {
			return failure;
		}
		String cause = (failure.getMessage() != null) ? failure.getMessage() : failure.getClass().getSimpleName();
		return new UnacknowledgedWriteException("Redis did not reply to " + name + " before the connection failed ("
				+ cause + "): it may or may not have been applied, and it was not sent again", failure);
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
		if (error != null && RedisFailures.isRedirection(error)) {
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
