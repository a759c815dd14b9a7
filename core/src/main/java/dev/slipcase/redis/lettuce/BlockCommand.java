package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TransactionLane} block as one Lettuce command and its own output: writes {@code MULTI}, its
 * {@link QueuedWrites} and {@code EXEC} at once; reads {@code MULTI}'s error, each write's queueing error
 * and {@code EXEC}'s {@link ExecOutput}. Through a stock handler it writes {@code PING} and the block goes
 * out as separate commands ({@link TransactionLane#sendSeparately}, which then owns the writes' pins);
 * written again after a reconnect, or given up before, it writes {@code PING} and fails as unacknowledged
 * or cancelled. Event loop only; once done it lets go of its writes' values before its result completes.
 */
final class BlockCommand extends MultiReplyCommand<byte[], byte[], TransactionResult> {

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

	private final QueuedWrites writes;

	private final ExecOutput exec;

	private final CompletableFuture<TransactionResult> result;

	private final StatefulRedisConnection<byte[], byte[]> connection;

	private int mode = NEW;

	private @Nullable String multiError;

	/** Per command, the error Redis refused to queue it with; {@code null} while none was. */
	private String @Nullable [] queueErrors;

	BlockCommand(TransactionBlock decision, QueuedWrites writes, CompletableFuture<TransactionResult> result,
			StatefulRedisConnection<byte[], byte[]> connection) {
		super(ByteArrayCodec.INSTANCE);
		this.decision = decision;
		this.writes = writes;
		this.exec = new ExecOutput(writes);
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
		this.writes.encode(buf);
		buf.writeBytes(EXEC);
		expect(this.writes.size() + 2);
	}

	/** Lettuce read the last reply ({@link MultiReplyCommandHandler#canComplete}), or a stock handler the first. */
	@Override
	public void complete() {
		switch (this.mode) {
			case NOT_ACCEPTED -> {
				if (markDone()) {
					TransactionLane.sendSeparately(this.connection, this.decision, this.writes, this.result);
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
		this.writes.letGo();
		String execError = this.exec.getError();
		Throwable failure = TransactionLane.blockFailure(this.multiError, this.exec,
				(execError != null) ? new RedisCommandExecutionException(execError) : null, this.queueErrors);
		if (failure != null) {
			this.result.completeExceptionally(failure);
		}
		else {
			this.result.complete(this.exec.get());
		}
	}

	private void fail(Throwable failure) {
		if (markDone()) {
			this.writes.letGo();
			this.result.completeExceptionally(failure);
		}
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

	/** {@code EXEC}'s reply; the others ({@code QUEUED}, {@code OK}, {@code PONG}) are dropped, their errors aside. */
	@Override
	@Nullable CommandOutput<byte[], byte[], ?> replyOutput() {
		return (phase() == this.writes.size()) ? this.exec : null;
	}

	/** An error reply: {@code MULTI}'s, a command's in place of {@code QUEUED}, or {@code EXEC}'s. */
	@Override
	public void setError(@Nullable ByteBuffer error) {
		int phase = phase();
		if (phase == -1 || (phase >= 0 && phase < this.writes.size())) {
			String words = (error != null) ? StandardCharsets.UTF_8.decode(error).toString() : "ERR";
			if (phase == -1) {
				this.multiError = words;
				return;
			}
			if (this.queueErrors == null) {
				this.queueErrors = new String[this.writes.size()];
			}
			this.queueErrors[phase] = words;
			return;
		}
		super.setError(error);
	}

	/** A reply read: a command's queueing needs nothing more. */
	@Override
	void replyRead() {
	}

	/** What an output threw leaves the block's outcome unknown to it. */
	@Override
	void outputFailed(RuntimeException failure) {
		completeExceptionally(failure);
	}

	@Override
	public String toString() {
		return "MULTI … EXEC block of " + this.writes.size() + " commands";
	}

}
