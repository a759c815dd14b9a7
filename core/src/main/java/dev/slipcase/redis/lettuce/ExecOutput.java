package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandType;
import org.jspecify.annotations.Nullable;

/**
 * The output of a {@link TransactionLane} block's {@code EXEC}: each element of the reply, one per
 * queued write, kept as a value ({@code Long}, {@code byte[]}, a {@code SET}'s status as a
 * {@code String}, {@code List}, {@link RedisCommandExecutionException}) of a {@link TransactionResult}.
 * An error before the array ({@code EXECABORT}) is {@code EXEC}'s own; a discarded transaction, or an
 * array of another length than the block, is {@link #unexpected()}. One per block; event loop only.
 */
final class ExecOutput extends CommandOutput<byte[], byte[], TransactionResult> {

	/**
	 * The commands whose reply is a status, kept as text as Lettuce's {@code StatusOutput} reads it:
	 * Lettuce hands a status over as bytes, as it does a bulk string.
	 */
	private static final Set<CommandType> STATUS_REPLIES = EnumSet.of(CommandType.SET, CommandType.SETEX,
			CommandType.PSETEX, CommandType.MSET, CommandType.HMSET, CommandType.RENAME, CommandType.LSET,
			CommandType.LTRIM);

	private final QueuedWrites writes;

	private final int size;

	private final List<@Nullable Object> replies;

	/** Whether the array's header was read: what comes after it is the commands' replies. */
	private boolean started;

	private boolean discarded;

	/** A value came before any array header: {@code EXEC} answered with something else than an array. */
	private boolean notArray;

	/** The array's length when it is not one element per command: nothing is kept then. */
	private int mismatched = -1;

	/** The value of the element being read. */
	private @Nullable Object element;

	/** The arrays of the element being read that are not complete yet, outermost first; {@code null} for none yet. */
	private @Nullable List<List<@Nullable Object>> open;

	/** The output of {@code EXEC} for a block of {@code writes}, {@code MULTI} and {@code EXEC} left out. */
	ExecOutput(QueuedWrites writes) {
		super(ByteArrayCodec.INSTANCE, null);
		this.writes = writes;
		this.size = writes.size();
		this.replies = new ArrayList<>(this.size);
	}

	/**
	 * What was wrong with a reply that came, or {@code null}: a discarded transaction, a reply that is
	 * not an array, or an array that is not one element per command (something else was queued inside
	 * the block, or a command of it was not), whose elements were kept for no command.
	 */
	@Nullable String unexpected() {
		if (this.notArray) {
			return "EXEC answered with a value that is not an array";
		}
		if (this.discarded) {
			return "EXEC answered that the transaction was discarded";
		}
		if (this.mismatched >= 0) {
			return "EXEC answered " + this.mismatched + " replies to a block of " + this.size
					+ " commands: a command of the block was not written, or another was queued inside it";
		}
		return null;
	}

	@Override
	public TransactionResult get() {
		return new Replies(this.discarded, this.replies);
	}

	/** The array's header, or an array inside an element (maps and sets taken for arrays). */
	@Override
	public void multi(int count) {
		if (!this.started) {
			this.started = true;
			this.discarded = count == -1;
			if (count >= 0 && count != this.size) {
				this.mismatched = count;
			}
			return;
		}
		if (count < 0) {
			value(null);
			return;
		}
		List<@Nullable Object> array = new ArrayList<>(count);
		value(array);
		if (this.open == null) {
			this.open = new ArrayList<>(2);
		}
		this.open.add(array);
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		if (!this.started) {
			// a null array: the transaction was discarded
			this.discarded = bytes == null;
			this.notArray = bytes != null;
			return;
		}
		if (bytes == null) {
			value(null);
		}
		else if (isStatus()) {
			value(StandardCharsets.UTF_8.decode(bytes).toString());
		}
		else {
			byte[] copy = new byte[bytes.remaining()];
			bytes.get(copy);
			value(copy);
		}
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		value((bytes != null) ? StandardCharsets.UTF_8.decode(bytes).toString() : null);
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		setSingle(bytes);
	}

	@Override
	public void set(long integer) {
		value(integer);
	}

	@Override
	public void set(double number) {
		value(number);
	}

	@Override
	public void set(boolean value) {
		value(value);
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
		else {
			value(new RedisCommandExecutionException(error));
		}
	}

	/**
	 * A part of the reply ended, {@code depth} arrays deep: at the depth of the innermost open array,
	 * that array; at depth 1, an element, which is kept.
	 */
	@Override
	public void complete(int depth) {
		if (!this.started || !keeps() || depth == 0) {
			return;
		}
		List<List<@Nullable Object>> open = this.open;
		if (open != null && depth == open.size()) {
			open.remove(depth - 1);
		}
		if (depth == 1 && this.replies.size() < this.size) {
			this.replies.add(this.element);
			this.element = null;
		}
	}

	/** A value read inside the array: the element, or a part of the innermost array open in it. */
	private void value(@Nullable Object value) {
		if (!this.started) {
			this.notArray = true;
			return;
		}
		if (!keeps()) {
			return;
		}
		List<List<@Nullable Object>> open = this.open;
		if (open != null && !open.isEmpty()) {
			open.get(open.size() - 1).add(value);
		}
		else {
			this.element = value;
		}
	}

	/** Whether the element being read is the reply of a command that answers a status, and no part of an array in it. */
	private boolean isStatus() {
		List<List<@Nullable Object>> open = this.open;
		return (open == null || open.isEmpty()) && this.replies.size() < this.size
				&& this.writes.type(this.replies.size()) instanceof CommandType type && STATUS_REPLIES.contains(type);
	}

	/** Whether the elements are kept: one element per command. */
	private boolean keeps() {
		return this.mismatched < 0 && !this.discarded;
	}

	/** {@code EXEC}'s reply: the replies of the block's commands in order, a refused one as its exception. */
	private record Replies(boolean wasDiscarded, List<@Nullable Object> replies) implements TransactionResult {

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
