package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A Lettuce command that stands for several on the wire and reads one reply for each, and its own
 * output: each part of a reply goes to the output {@link #replyOutput()} names, and the end of each
 * reply to {@link #replyRead()}. A {@link MultiReplyCommandHandler} keeps it at the head of the
 * stack until it has read as many replies as its last write expects ({@link #expect}), and lets
 * each write carry several commands ({@link #accept()}); one that reaches a stock handler writes
 * {@link #writePing PING} alone. Encoded, read and completed on the connection's event loop; holds
 * no buffer.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 * @param <T> the type of its result
 */
abstract class MultiReplyCommand<K, V, T> extends CommandOutput<K, V, T> implements RedisCommand<K, V, T> {

	private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

	private boolean accepted;

	private int expected = Integer.MAX_VALUE;

	private int received;

	/** Set once, by whichever way it ends. */
	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<MultiReplyCommand> DONE = AtomicIntegerFieldUpdater
		.newUpdater(MultiReplyCommand.class, "done");

	/** 1 once done: set once, by whichever thread completes, fails or cancels it first. */
	private volatile int done;

	MultiReplyCommand(RedisCodec<K, V> codec) {
		super(codec, null);
	}

	/** A {@link MultiReplyCommandHandler} is writing it: this write may carry several commands. */
	final void accept() {
		this.accepted = true;
	}

	/**
	 * Whether the write being encoded may carry several commands, once: a write through a stock
	 * handler (another channel's, say) may not. Starts the count of replies again.
	 */
	final boolean takeAcceptance() {
		boolean accepted = this.accepted;
		this.accepted = false;
		this.received = 0;
		return accepted;
	}

	/** The write being encoded is answered by {@code replies} replies. */
	final void expect(int replies) {
		this.expected = replies;
	}

	/** Writes {@code PING}, whose one reply is no command's. */
	final void writePing(ByteBuf buf) {
		buf.writeBytes(PING);
		this.expected = 1;
	}

	/** Whether it has read a reply for every command of its last write. */
	final boolean hasAllReplies() {
		return this.received >= this.expected;
	}

	/** How many replies to its last write it has read. */
	final int received() {
		return this.received;
	}

	/** Marks it done; whether it was not done before. */
	final boolean markDone() {
		return DONE.compareAndSet(this, 0, 1);
	}

	/** The output the reply being read goes to, {@code null} for none (a reply to {@code PING}). */
	abstract @Nullable CommandOutput<K, V, ?> replyOutput();

	/** The reply being read is complete: {@link #received()} still counts it out. */
	abstract void replyRead();

	/** The output of the reply being read threw {@code failure}. */
	abstract void outputFailed(RuntimeException failure);

	@Override
	public final CommandOutput<K, V, T> getOutput() {
		return this;
	}

	@Override
	public final @Nullable CommandArgs<K, V> getArgs() {
		return null;
	}

	@Override
	public final boolean isCancelled() {
		return false;
	}

	@Override
	public final boolean isDone() {
		return this.done != 0;
	}

	@Override
	public final void setOutput(CommandOutput<K, V, T> output) {
		throw new UnsupportedOperationException("It reads its replies itself");
	}

	// ---- CommandOutput: each part of a reply to the output it goes to

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.set(bytes);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.setSingle(bytes);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.setBigNumber(bytes);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void set(long integer) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.set(integer);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void set(double number) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.set(number);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void set(boolean value) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.set(value);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	/** An error reply: the output's it goes to. */
	@Override
	public void setError(@Nullable ByteBuffer error) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.setError(error);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	/**
	 * Not an error reply (those come as bytes): Lettuce's word for why it gives the command up (a
	 * reset, a closed connection), which answers none of its commands; the failure or cancellation
	 * that follows says it.
	 */
	@Override
	public final void setError(@Nullable String error) {
	}

	@Override
	public final boolean hasError() {
		return false;
	}

	@Override
	public final @Nullable String getError() {
		return null;
	}

	@Override
	public void multi(int count) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.multi(count);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void multiArray(int count) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.multiArray(count);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void multiPush(int count) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.multiPush(count);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void multiMap(int count) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.multiMap(count);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	@Override
	public void multiSet(int count) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.multiSet(count);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
	}

	/** The end of a reply or of a part of one; at depth 0 the reply is read. */
	@Override
	public final void complete(int depth) {
		CommandOutput<K, V, ?> output = replyOutput();
		try {
			if (output != null) {
				output.complete(depth);
			}
		}
		catch (RuntimeException ex) {
			outputFailed(ex);
		}
		if (depth == 0) {
			replyRead();
			this.received++;
		}
	}

}
