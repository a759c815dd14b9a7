package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import org.jspecify.annotations.Nullable;

/**
 * The output of a {@link TransactionLane} block's {@code EXEC}: hands each element of the reply to
 * the output of the command it answers and completes that command, and collects the elements as a
 * {@link TransactionResult}. An error before the array ({@code EXECABORT}) is {@code EXEC}'s own;
 * an array of another length than the block is handed to no command ({@link #unexpected()}).
 * The block's commands are fixed when it is made, so nothing here is shared with another block.
 * Used on the connection's event loop only.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
final class ExecOutput<K, V> extends CommandOutput<K, V, TransactionResult> {

	private final List<? extends SlipcaseCommand<K, V, ?>> commands;

	private final List<Object> replies;

	/** Whether the array's header was read: what comes after it belongs to the commands. */
	private boolean started;

	private boolean discarded;

	/** The array's length when it is not one element per command: nothing is handed over then. */
	private int mismatched = -1;

	/** The command the element being read answers. */
	private int current;

	/**
	 * The output of {@code EXEC} for a block of {@code commands}, in the order they are queued.
	 * @param codec the connection's codec, never {@code null}
	 * @param commands the block's commands, {@code MULTI} and {@code EXEC} left out, not changed
	 * afterwards; never {@code null}
	 */
	ExecOutput(RedisCodec<K, V> codec, List<? extends SlipcaseCommand<K, V, ?>> commands) {
		super(codec, null);
		this.commands = commands;
		this.replies = new ArrayList<>(commands.size());
	}

	/**
	 * What was wrong with a reply that came, or {@code null}: a discarded transaction, or an array
	 * that is not one element per command (a command of the block was not written, being done
	 * already, or something else was queued inside it), whose elements were handed to no command.
	 */
	@Nullable String unexpected() {
		if (this.discarded) {
			return "EXEC answered that the transaction was discarded";
		}
		if (this.mismatched >= 0) {
			return "EXEC answered " + this.mismatched + " replies to a block of " + this.commands.size()
					+ " commands: a command of the block was not written, or another was queued inside it";
		}
		return null;
	}

	@Override
	public TransactionResult get() {
		return new Replies(this.discarded, this.replies);
	}

	@Override
	public void multi(int count) {
		if (!start(count) && routes()) {
			element().multi(count);
		}
	}

	@Override
	public void multiArray(int count) {
		if (!start(count) && routes()) {
			element().multiArray(count);
		}
	}

	@Override
	public void multiMap(int count) {
		if (!start(count) && routes()) {
			element().multiMap(count);
		}
	}

	@Override
	public void multiSet(int count) {
		if (!start(count) && routes()) {
			element().multiSet(count);
		}
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (!this.started) {
			// a null array: the transaction was discarded
			this.discarded = bytes == null;
			return;
		}
		if (routes()) {
			element().set(bytes);
		}
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		if (routes()) {
			element().setSingle(bytes);
		}
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		if (routes()) {
			element().setBigNumber(bytes);
		}
	}

	@Override
	public void set(long integer) {
		if (routes()) {
			element().set(integer);
		}
	}

	@Override
	public void set(double number) {
		if (routes()) {
			element().set(number);
		}
	}

	@Override
	public void set(boolean value) {
		if (routes()) {
			element().set(value);
		}
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		setError((error != null) ? decodeString(error) : null);
	}

	@Override
	public void setError(@Nullable String error) {
		if (!this.started) {
			super.setError(error);
		}
		else if (routes()) {
			element().setError(error);
		}
	}

	/**
	 * An element ended at {@code depth} 1 (deeper: a part of one did): the command it answers
	 * takes its reply and completes.
	 */
	@Override
	public void complete(int depth) {
		if (!this.started || !routes() || depth == 0 || this.current >= this.commands.size()) {
			return;
		}
		SlipcaseCommand<K, V, ?> command = this.commands.get(this.current);
		CommandOutput<K, V, ?> output = command.getOutput();
		output.complete(depth - 1);
		if (depth == 1) {
			this.replies.add(output.hasError() ? new RedisCommandExecutionException(output.getError()) : output.get());
			this.current++;
			command.complete();
		}
	}

	/** Whether {@code count} is the header of the reply's array. */
	private boolean start(int count) {
		if (this.started) {
			return false;
		}
		this.started = true;
		this.discarded = count == -1;
		if (count >= 0 && count != this.commands.size()) {
			this.mismatched = count;
		}
		return true;
	}

	/** Whether the elements go to the commands: one element per command. */
	private boolean routes() {
		return this.mismatched < 0 && !this.discarded;
	}

	private CommandOutput<K, V, ?> element() {
		if (!this.started || this.current >= this.commands.size()) {
			throw new IllegalStateException("EXEC answered more than its block's " + this.commands.size() + " commands");
		}
		return this.commands.get(this.current).getOutput();
	}

	/** {@code EXEC}'s reply: the replies of the block's commands in order, a refused one as its exception. */
	private record Replies(boolean wasDiscarded, List<Object> replies) implements TransactionResult {

		@Override
		public int size() {
			return this.replies.size();
		}

		@Override
		public boolean isEmpty() {
			return this.replies.isEmpty();
		}

		@Override
		@SuppressWarnings("unchecked")
		public <T> T get(int index) {
			return (T) this.replies.get(index);
		}

		@Override
		public Stream<Object> stream() {
			return this.replies.stream();
		}

		@Override
		public Iterator<Object> iterator() {
			return this.replies.iterator();
		}

	}

}
