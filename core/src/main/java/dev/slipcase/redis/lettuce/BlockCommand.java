package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
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
final class BlockCommand<K, V> extends MultiReplyCommand<K, V, TransactionResult> {

	private static final byte[] MULTI = "*1\r\n$5\r\nMULTI\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] EXEC = "*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);

	/** Not encoded yet. */
	private static final int NEW = 0;

	/** The block went out. */
	private static final int BLOCK = 1;

	/** A stock handler took it: PING went out, the block is to be sent as separate commands. */
	private static final int NOT_ACCEPTED = 2;

	/** Given up (or failed) before it was written: PING went out. */
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

	private @Nullable String multiError;

	BlockCommand(RedisCodec<K, V> codec, TransactionBlock decision, List<? extends SlipcaseCommand<K, V, ?>> commands,
			CompletableFuture<TransactionResult> result, StatefulRedisConnection<K, V> connection) {
		super(codec);
		this.decision = decision;
		this.commands = commands;
		this.written = commands;
		this.exec = new ExecOutput<>(codec, commands);
		this.result = result;
		this.connection = connection;
	}

	@Override
	public void encode(ByteBuf buf) {
		boolean accepted = takeAcceptance();
		if (this.mode != NEW) {
			// a replay: the block was written before (or PING was): never again
			if (this.mode == BLOCK) {
				this.mode = REPLAYED;
			}
			writePing(buf);
			return;
		}
		if (isDone()) {
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
		// a command done is left out, as Lettuce leaves one out: EXEC then answers for fewer
		this.written = undone(this.commands);
		for (SlipcaseCommand<K, V, ?> command : this.written) {
			command.encode(buf); // its guard sees the block committed
		}
		buf.writeBytes(EXEC);
		expect(this.written.size() + 2);
	}

	/** Lettuce read the last reply ({@link MultiReplyCommandHandler#canComplete}), or a stock handler the first. */
	@Override
	public void complete() {
		switch (this.mode) {
			case NOT_ACCEPTED -> {
				if (markDone()) {
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
		if (!markDone()) {
			return;
		}
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
		if (!markDone()) {
			return;
		}
		TransactionLane.failRemaining(this.commands, failure);
		this.result.completeExceptionally(failure);
	}

	@Override
	public boolean completeExceptionally(Throwable throwable) {
		if (isDone()) {
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
	public ProtocolKeyword getType() {
		return BlockKeyword.BLOCK;
	}

	@Override
	public TransactionResult get() {
		return this.exec.get();
	}

	/** Where the reply being read goes: -1 MULTI (or PING), 0..n-1 a command's queueing, n EXEC. */
	private int phase() {
		return (this.mode == BLOCK) ? received() - 1 : -2;
	}

	/** MULTI's reply (an error kept, anything else dropped), a command's queueing, or EXEC's reply. */
	@Override
	@Nullable CommandOutput<K, V, ?> replyOutput() {
		int phase = phase();
		if (phase == this.written.size()) {
			return this.exec;
		}
		return (phase >= 0 && phase < this.written.size()) ? this.written.get(phase).getOutput() : null;
	}

	@Override
	public void setError(@Nullable ByteBuffer error) {
		if (phase() == -1) {
			this.multiError = (error != null) ? StandardCharsets.UTF_8.decode(error).toString() : "ERR";
			return;
		}
		super.setError(error);
	}

	/** A command's queueing read: its first of two replies, as Lettuce completes a command answered {@code QUEUED}. */
	@Override
	void replyRead() {
		int phase = phase();
		if (phase >= 0 && phase < this.written.size()) {
			this.written.get(phase).complete();
		}
	}

	/** What an output threw leaves the block's outcome unknown to it. */
	@Override
	void outputFailed(RuntimeException failure) {
		completeExceptionally(failure);
	}

	@Override
	public String toString() {
		return "MULTI … EXEC block of " + this.commands.size() + " commands";
	}

}
