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
 * {@link TransactionResult}. An error before the array ({@code EXECABORT}) is {@code EXEC}'s own.
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

	/** The command the element being read answers. */
	private int current;

	/**
	 * The output of {@code EXEC} for a block of {@code commands}, in the order they are queued.
	 * @param codec the connection's codec, never {@code null}
	 * @param commands the block's commands, {@code MULTI} and {@code EXEC} left out; never {@code null}
	 */
	ExecOutput(RedisCodec<K, V> codec, List<? extends SlipcaseCommand<K, V, ?>> commands) {
		super(codec, null);
		this.commands = commands;
		this.replies = new ArrayList<>(commands.size());
	}

	@Override
	public TransactionResult get() {
		return new Replies(this.discarded, this.replies);
	}

	@Override
	public void multi(int count) {
		if (!start(count)) {
			element().multi(count);
		}
	}

	@Override
	public void multiArray(int count) {
		if (!start(count)) {
			element().multiArray(count);
		}
	}

	@Override
	public void multiMap(int count) {
		if (!start(count)) {
			element().multiMap(count);
		}
	}

	@Override
	public void multiSet(int count) {
		if (!start(count)) {
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
		element().set(bytes);
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		element().setSingle(bytes);
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		element().setBigNumber(bytes);
	}

	@Override
	public void set(long integer) {
		element().set(integer);
	}

	@Override
	public void set(double number) {
		element().set(number);
	}

	@Override
	public void set(boolean value) {
		element().set(value);
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		setError((error != null) ? decodeString(error) : null);
	}

	@Override
	public void setError(@Nullable String error) {
		if (this.started) {
			element().setError(error);
		}
		else {
			super.setError(error);
		}
	}

	/**
	 * An element ended at {@code depth} 1 (deeper: a part of one did): the command it answers
	 * takes its reply and completes.
	 */
	@Override
	public void complete(int depth) {
		if (!this.started || depth == 0 || this.current >= this.commands.size()) {
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
		return true;
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
