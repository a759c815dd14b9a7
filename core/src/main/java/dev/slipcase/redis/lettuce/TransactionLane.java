package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.VoidOutput;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

/**
 * Runs {@code MULTI} … {@code EXEC} blocks on connections of its own. On a shared, multiplexed
 * connection another thread's command can land between {@code MULTI} and {@code EXEC} and join the
 * transaction; here nothing else writes to the lane's connections, and each block is written in
 * one dispatch while its connection is held, so blocks from many threads pipeline without ever
 * interleaving. On a cluster, a block goes to the master of its key's slot, over the node
 * connections of a cluster connection of the lane's own; a block whose slot has moved fails
 * ({@code MOVED} queues as an error, {@code EXEC} answers {@code EXECABORT}), and the caller writes
 * another way. Each block keeps its own transaction: {@code EXEC}'s {@link ExecOutput} keeps the
 * replies, outside Lettuce's one transaction per connection. A block's commands are
 * {@link QueuedWrites}; the block goes out as one {@link BlockCommand} that writes them where the
 * connection's channel reads several replies per command ({@link MultiReplyCommandHandler}, which
 * {@link WriteCoalescing}'s resources install), else as {@code MULTI}, a command of its own per
 * write and {@code EXEC} ({@link BlockKeyword}). Every command of a block, {@code MULTI} and
 * {@code EXEC} included, reaches Redis at most once: after a reconnect, Lettuce's replay of a block
 * whose replies were lost applies nothing, and the block fails with an
 * {@link UnacknowledgedWriteException} (applied or not: unknown). Thread-safe.
 */
public final class TransactionLane implements AutoCloseable {

	private final ConnectionHolder<byte[], byte[]> connections;

	/**
	 * A lane over {@code connections}, which it owns: nothing else may send on them.
	 * @param connections a holder that opens connections for this lane alone, never {@code null}
	 */
	public TransactionLane(ConnectionHolder<byte[], byte[]> connections) {
		this.connections = connections;
	}

	/**
	 * Runs {@code writes} between {@code MULTI} and {@code EXEC}, in database {@code database}
	 * (standalone) or on the master of {@code slotKey}'s slot (cluster); every key of the writes
	 * must be in that slot. The writes are sealed: nothing is added to them afterwards. Their
	 * {@link EncodedValue}s stay their caller's to release; the lane pins them until it is done with
	 * them (the block's command done, or its values copied into commands of their own), so a caller
	 * that gives up and releases them never frees bytes the block is writing.
	 * @return the future of {@code EXEC}'s reply: the replies of the commands in order (a command
	 * Redis refused holds its exception), or a failure when the transaction did not run; cancelling
	 * it gives the block up (see {@link TransactionBlock})
	 */
	public CompletableFuture<TransactionResult> execute(int database, byte[] slotKey, QueuedWrites writes) {
		TransactionBlock decision = new TransactionBlock();
		BlockResult result = new BlockResult(decision);
		if (!writes.hold()) {
			result.completeExceptionally(new CancellationException(
					"The block was not sent: its values were released, its call given up, before it was sent"));
			return result;
		}
		try {
			OrderedDispatcher<byte[], byte[]> dispatcher = this.connections.dispatcher(database);
			if (dispatcher.isDone() && !dispatcher.isCompletedExceptionally()
					&& dispatcher.join() instanceof StatefulRedisConnection<byte[], byte[]> open) {
				withoutCommandTimeout(open);
				send(open, decision, writes, result); // open and standalone
				return result;
			}
			connectionFor(dispatcher, slotKey).whenComplete((connection, ex) -> {
				try {
					if (ex != null) {
						throw ex;
					}
					withoutCommandTimeout(connection);
					send(connection, decision, writes, result);
				}
				catch (Throwable failure) {
					notSent(writes, result, failure);
				}
			});
		}
		catch (RuntimeException ex) {
			notSent(writes, result, ex);
			throw ex;
		}
		return result;
	}

	/** A block that was never sent: the lane lets go of its values, and the block fails. */
	private static void notSent(QueuedWrites writes, BlockResult result, Throwable failure) {
		writes.letGo();
		result.completeExceptionally(RedisFailures.unwrap(failure));
	}

	/**
	 * Sends a block as one {@link BlockCommand} when the connection's channel has a
	 * {@link MultiReplyCommandHandler}, else as {@code MULTI}, the commands and {@code EXEC}.
	 */
	private static void send(StatefulRedisConnection<byte[], byte[]> connection, TransactionBlock decision,
			QueuedWrites writes, CompletableFuture<TransactionResult> result) {
		if (MultiReplyCommandHandler.isInstalledOn(connection)) {
			OrderedDispatcher.sendTogether(connection, new BlockCommand(decision, writes, result, connection),
					connection);
			return;
		}
		sendSeparately(connection, decision, writes, result);
	}

	/**
	 * Sends {@code MULTI}, a command of its own per write of {@code writes} and {@code EXEC}, in one
	 * dispatch. A queued command's own future says only whether it ended: its reply is its element of
	 * {@code EXEC}'s. Its commands carry copies of the writes' values, which it lets go of once copied.
	 */
	static void sendSeparately(StatefulRedisConnection<byte[], byte[]> connection, TransactionBlock decision,
			QueuedWrites writes, CompletableFuture<TransactionResult> result) {
		List<RedisCommand<byte[], byte[], ?>> block = new ArrayList<>(writes.size() + 2);
		SlipcaseCommand<byte[], byte[], String> multi = SlipcaseCommand.delimiting(decision, true, BlockKeyword.MULTI,
				new StatusOutput<>(ByteArrayCodec.INSTANCE));
		block.add(multi);
		List<SlipcaseCommand<byte[], byte[], Void>> commands = new ArrayList<>(writes.size());
		try {
			for (int i = 0; i < writes.size(); i++) {
				commands.add(SlipcaseCommand.queued(decision, writes.type(i), new VoidOutput<>(ByteArrayCodec.INSTANCE),
						writes.args(i)));
			}
		}
		finally {
			writes.letGo();
		}
		block.addAll(commands);
		ExecOutput replies = new ExecOutput(writes);
		SlipcaseCommand<byte[], byte[], TransactionResult> exec = SlipcaseCommand.delimiting(decision, false,
				BlockKeyword.EXEC, replies);
		block.add(exec);
		exec.whenComplete((reply, ex) -> {
			Throwable refused = multi.isCompletedExceptionally() ? multi.handle((ok, e) -> e).join() : null;
			Throwable failure = blockFailure((refused instanceof RedisCommandExecutionException) ? refused.getMessage()
					: null, replies, ex, queueErrors(commands));
			// every command ends with its block
			for (SlipcaseCommand<byte[], byte[], Void> command : commands) {
				String refusedWith = command.replyOutput().getError();
				if (refusedWith != null || failure != null) {
					command.completeExceptionally((refusedWith != null) ? new RedisCommandExecutionException(refusedWith)
							: failure);
				}
				else {
					command.complete((Void) null);
				}
			}
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(reply);
			}
		});
		OrderedDispatcher.sendTogether(connection, block, connection);
	}

	/** Per command, the error Redis refused to queue it with; {@code null} when it refused none. */
	private static String @Nullable [] queueErrors(List<? extends SlipcaseCommand<?, ?, ?>> commands) {
		String[] errors = null;
		for (int i = 0; i < commands.size(); i++) {
			String error = commands.get(i).replyOutput().getError();
			if (error != null) {
				if (errors == null) {
					errors = new String[commands.size()];
				}
				errors[i] = error;
			}
		}
		return errors;
	}

	/**
	 * What a block failed with, {@code null} when it ran: {@code EXEC}'s own failure (an error reply
	 * carrying, as suppressed exceptions, the errors Redis refused to queue commands with), or,
	 * where the commands may have run otherwise than as one transaction (Redis refused
	 * {@code MULTI}, and ran each command on its own or refused it; {@code EXEC} answered for another
	 * number of commands), an {@link UnacknowledgedWriteException}: what was applied is unknown.
	 * @param queueErrors per command, the error Redis refused to queue it with; {@code null} for none
	 */
	static @Nullable Throwable blockFailure(@Nullable String multiError, ExecOutput replies,
			@Nullable Throwable execFailure, String @Nullable [] queueErrors) {
		if (multiError != null) {
			RedisCommandExecutionException refused = new RedisCommandExecutionException(multiError);
			return new UnacknowledgedWriteException("Redis refused MULTI (" + refused.getMessage() + "): the block's "
					+ "commands ran one by one or were refused, outside a transaction; what was applied is unknown",
					refused);
		}
		String unexpected = replies.unexpected();
		if (execFailure == null && unexpected != null) {
			return new UnacknowledgedWriteException(unexpected + "; what was applied is unknown");
		}
		if (execFailure instanceof RedisCommandExecutionException && queueErrors != null) {
			for (String queueError : queueErrors) {
				if (queueError != null) {
					execFailure.addSuppressed(new RedisCommandExecutionException(queueError));
				}
			}
		}
		return execFailure;
	}

	private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connectionFor(
			OrderedDispatcher<byte[], byte[]> dispatcher, byte[] slotKey) {
		return dispatcher.thenCompose((connection) -> {
			if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
				int slot = SlotHash.getSlot(this.connections.codec().encodeKey(slotKey));
				RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
				if (master == null) {
					return CompletableFuture.failedFuture(new IllegalStateException("No master serves slot " + slot));
				}
				return cluster.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
			}
			return CompletableFuture.completedFuture(standalone(connection));
		});
	}

	/**
	 * Turns Lettuce's own command timeout off on a connection of the lane, where the client keeps
	 * Lettuce's default timeout source (which follows the connection's timeout): the lane's callers
	 * wait with a timeout of their own and give a block up themselves ({@link CallSteps}), and
	 * Lettuce's would start a timer per command of every block and fail a timed-out command on a
	 * thread of its own.
	 */
	private static void withoutCommandTimeout(StatefulConnection<?, ?> connection) {
		if (!connection.getTimeout().isZero()) {
			connection.setTimeout(Duration.ZERO);
		}
	}

	private static StatefulRedisConnection<byte[], byte[]> standalone(StatefulConnection<byte[], byte[]> connection) {
		return (StatefulRedisConnection<byte[], byte[]>) connection;
	}

	/**
	 * The future a caller of {@link #execute} waits on: completed by {@code EXEC}; cancelling it
	 * gives the block up (see {@link TransactionBlock}) rather than cancelling {@code EXEC} alone.
	 */
	private static final class BlockResult extends CompletableFuture<TransactionResult> {

		private final TransactionBlock block;

		BlockResult(TransactionBlock block) {
			this.block = block;
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			this.block.abandon();
			return super.cancel(mayInterruptIfRunning);
		}

	}

	/** Closes the lane's connections. */
	@Override
	public void close() {
		this.connections.close();
	}

}
