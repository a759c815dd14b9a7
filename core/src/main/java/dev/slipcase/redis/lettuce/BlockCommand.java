package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TransactionLane} block as one Lettuce command, and its own output: {@link #encode} writes
 * {@code MULTI}, the block's commands and {@code EXEC} at once, and the replies go, counted, to
 * {@code MULTI}'s error (if any), to each command's output as Redis queues or refuses it, then to an
 * {@link ExecOutput}. Only a {@link MultiReplyCommandHandler} keeps it on the stack until the last
 * reply; one that reaches a stock handler writes {@code PING} in its place, and its block then goes
 * out as separate commands. Written at most once: written again after a reconnect, or given up
 * before it was written ({@link TransactionBlock#abandon()}), it writes {@code PING}, and its
 * commands fail as unacknowledged or cancelled. Encoded, read and completed on the connection's
 * event loop; holds no buffer.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
final class BlockCommand<K, V> extends CommandOutput<K, V, TransactionResult>
		implements RedisCommand<K, V, TransactionResult>, MultiReplyCommand {

	private static final byte[] MULTI = "*1\r\n$5\r\nMULTI\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EXEC = "*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

	/** Not encoded yet. */
	private static final int NEW = 0;

	/** The block went out. */
	private static final int BLOCK = 1;

	/** A stock handler took it: PING went out, the block is to be sent as separate commands. */
	private static final int NOT_ACCEPTED = 2;

	/** Given up before it was written: PING went out. */
	private static final int ABANDONED = 3;

	/** Written again after a reconnect: PING went out, the block's outcome is unknown. */
	private static final int REPLAYED = 4;

	private final TransactionBlock decision;

	private final List<? extends SlipcaseCommand<K, V, ?>> commands;

	private final ExecOutput<K, V> exec;

	private final CompletableFuture<TransactionResult> result;

	private final StatefulRedisConnection<K, V> connection;

	/** The commands written, when some were done already and left out; else {@link #commands}. */
	private List<? extends SlipcaseCommand<K, V, ?>> written;

	private int mode = NEW;

	private boolean accepted;

	private int expected = Integer.MAX_VALUE;

	private int received;

	private @Nullable String multiError;

	private volatile boolean done;

	BlockCommand(RedisCodec<K, V> codec, TransactionBlock decision, List<? extends SlipcaseCommand<K, V, ?>> commands,
			CompletableFuture<TransactionResult> result, StatefulRedisConnection<K, V> connection) {
		super(codec, null);
		this.decision = decision;
		this.commands = commands;
		this.written = commands;
		this.exec = new ExecOutput<>(codec, commands);
		this.result = result;
		this.connection = connection;
	}

	@Override
	public void accept() {
		this.accepted = true;
	}

	@Override
	public boolean hasAllReplies() {
		return this.received >= this.expected;
	}

	// ---- RedisCommand

	@Override
	public CommandOutput<K, V, TransactionResult> getOutput() {
		return this;
	}

	@Override
	public void encode(ByteBuf buf) {
		this.received = 0;
		// a write through a stock handler (another channel's, say) may not carry the block
		boolean accepted = this.accepted;
		this.accepted = false;
		if (this.mode != NEW) {
			// a replay: the block was written before (or PING was): never again
			if (this.mode == BLOCK) {
				this.mode = REPLAYED;
			}
			writePing(buf);
			return;
		}
		if (this.done) {
			// failed before it was written
			this.mode = ABANDONED;
			writePing(buf);
			return;
		}
		if (!accepted) {
			this.mode = NOT_ACCEPTED;
			writePing(buf);
			return;
		}
		if (!this.decision.commitAtMulti()) {
			this.mode = ABANDONED;
			writePing(buf);
			return;
		}
		this.mode = BLOCK;
		buf.writeBytes(MULTI);
		List<SlipcaseCommand<K, V, ?>> some = null;
		for (int i = 0; i < this.commands.size(); i++) {
			SlipcaseCommand<K, V, ?> command = this.commands.get(i);
			if (command.isDone()) {
				// as Lettuce leaves out a command that is done: EXEC then answers for fewer
				if (some == null) {
					some = new ArrayList<>(this.commands.subList(0, i));
				}
				continue;
			}
			command.encode(buf); // its guard sees the block committed
			if (some != null) {
				some.add(command);
			}
		}
		if (some != null) {
			this.written = some;
		}
		buf.writeBytes(EXEC);
		this.expected = this.written.size() + 2;
	}

	private void writePing(ByteBuf buf) {
		buf.writeBytes(PING);
		this.expected = 1;
	}

	/** Lettuce read the last reply ({@link MultiReplyCommandHandler#canComplete}), or a stock handler the first. */
	@Override
	public void complete() {
		switch (this.mode) {
			case NOT_ACCEPTED -> {
				if (!this.done) {
					this.done = true;
					TransactionLane.sendSeparately(this.connection, this.codec, this.decision, this.commands, this.result);
				}
			}
			case ABANDONED -> fail(new CancellationException(
					"The block was not sent: its caller gave up on it before it was written"));
			case REPLAYED -> fail(new UnacknowledgedWriteException("Redis did not reply to the whole block before the "
					+ "connection was lost, and it was not sent again after the reconnect, because the first write "
					+ "may have been applied: its outcome is unknown"));
			default -> finish();
		}
	}

	private void finish() {
		if (this.done) {
			return;
		}
		this.done = true;
		String execError = this.exec.getError();
		Throwable failure = TransactionLane.blockFailure(this.multiError, this.exec,
				(execError != null) ? new RedisCommandExecutionException(execError) : null);
		TransactionLane.failRemaining(this.commands, failure);
		if (failure != null) {
			this.result.completeExceptionally(failure);
		}
		else {
			this.result.complete(this.exec.get());
		}
	}

	private void fail(Throwable failure) {
		if (this.done) {
			return;
		}
		this.done = true;
		TransactionLane.failRemaining(this.commands, failure);
		this.result.completeExceptionally(failure);
	}

	@Override
	public boolean completeExceptionally(Throwable throwable) {
		if (this.done) {
			return false;
		}
		Throwable failure = throwable;
		if ((this.mode == BLOCK || this.mode == REPLAYED) && throwable instanceof IOException) {
			failure = new UnacknowledgedWriteException("Redis did not reply to the whole block before the connection "
					+ "failed (" + throwable + "): it may or may not have been applied, and it was not sent again",
					throwable);
		}
		fail(failure);
		return true;
	}

	@Override
	public void cancel() {
		fail(new CancellationException("The block was cancelled"));
	}

	@Override
	public @Nullable CommandArgs<K, V> getArgs() {
		return null;
	}

	@Override
	public ProtocolKeyword getType() {
		return BlockKeyword.BLOCK;
	}

	@Override
	public boolean isCancelled() {
		return false;
	}

	@Override
	public boolean isDone() {
		return this.done;
	}

	@Override
	public void setOutput(CommandOutput<K, V, TransactionResult> output) {
		throw new UnsupportedOperationException("A block reads its replies itself");
	}

	// ---- CommandOutput: routes the replies

	/** Where the reply being read goes: -1 MULTI (or PING), 0..n-1 a command's queueing, n EXEC. */
	private int phase() {
		if (this.mode != BLOCK) {
			return -2; // PING: swallowed
		}
		return this.received - 1;
	}

	private @Nullable CommandOutput<K, V, ?> queueing(int phase) {
		return (phase >= 0 && phase < this.written.size()) ? this.written.get(phase).getOutput() : null;
	}

	private boolean execPhase(int phase) {
		return phase >= 0 && phase == this.written.size();
	}

	@Override
	public TransactionResult get() {
		return this.exec.get();
	}

	@Override
	public void set(@Nullable ByteBuffer bytes) {
		int phase = phase();
		if (execPhase(phase)) {
			this.exec.set(bytes);
		}
		else {
			CommandOutput<K, V, ?> queued = queueing(phase);
			if (queued != null) {
				queued.set(bytes);
			}
		}
	}

	@Override
	public void setSingle(@Nullable ByteBuffer bytes) {
		int phase = phase();
		if (execPhase(phase)) {
			this.exec.setSingle(bytes);
		}
		// a status before EXEC: MULTI's OK (QUEUED is swallowed by Lettuce)
	}

	@Override
	public void setBigNumber(@Nullable ByteBuffer bytes) {
		if (execPhase(phase())) {
			this.exec.setBigNumber(bytes);
		}
	}

	@Override
	public void set(long integer) {
		if (execPhase(phase())) {
			this.exec.set(integer);
		}
	}

	@Override
	public void set(double number) {
		if (execPhase(phase())) {
			this.exec.set(number);
		}
	}

	@Override
	public void set(boolean value) {
		if (execPhase(phase())) {
			this.exec.set(value);
		}
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		route((error != null) ? StandardCharsets.UTF_8.decode(error).toString() : null);
	}

	/**
	 * Not an error reply: Lettuce's word for why it gives the command up (a reset, a closed
	 * connection), which is no reply to any command of the block; the failure it completes the block
	 * with says it.
	 */
	@Override
	public void setError(@Nullable String error) {
	}

	/** Hands an error reply to what it answers. */
	private void route(@Nullable String error) {
		int phase = phase();
		if (phase == -1) {
			this.multiError = error;
		}
		else if (execPhase(phase)) {
			this.exec.setError(error);
		}
		else {
			CommandOutput<K, V, ?> queued = queueing(phase);
			if (queued != null) {
				queued.setError(error);
			}
		}
	}

	@Override
	public boolean hasError() {
		return false;
	}

	@Override
	public @Nullable String getError() {
		return null;
	}

	@Override
	public void multi(int count) {
		if (execPhase(phase())) {
			this.exec.multi(count);
		}
	}

	@Override
	public void multiArray(int count) {
		if (execPhase(phase())) {
			this.exec.multiArray(count);
		}
	}

	@Override
	public void multiPush(int count) {
		if (execPhase(phase())) {
			this.exec.multiPush(count);
		}
	}

	@Override
	public void multiMap(int count) {
		if (execPhase(phase())) {
			this.exec.multiMap(count);
		}
	}

	@Override
	public void multiSet(int count) {
		if (execPhase(phase())) {
			this.exec.multiSet(count);
		}
	}

	/** The end of a reply or of a part of one; at depth 0 the next reply starts. */
	@Override
	public void complete(int depth) {
		int phase = phase();
		if (execPhase(phase)) {
			this.exec.complete(depth);
		}
		else if (depth == 0) {
			CommandOutput<K, V, ?> queued = queueing(phase);
			if (queued != null) {
				// as Lettuce does for a command answered QUEUED (or refused): its first of two replies
				queued.complete(0);
				this.written.get(phase).complete();
			}
		}
		if (depth == 0) {
			this.received++;
		}
	}

	@Override
	public String toString() {
		return "MULTI … EXEC block of " + this.commands.size() + " commands";
	}

}
