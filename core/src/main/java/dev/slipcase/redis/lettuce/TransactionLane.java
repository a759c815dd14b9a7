package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
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
 * another way. Each block keeps its own transaction: {@code EXEC}'s {@link ExecOutput} hands each
 * command its reply, outside Lettuce's one transaction per connection. A block goes out as one
 * {@link BlockCommand} where the connection's channel reads several replies per command
 * ({@link MultiReplyCommandHandler}, which {@link WriteCoalescing}'s resources install), else as
 * {@code MULTI}, its commands and {@code EXEC}, each a command of its own ({@link BlockKeyword}).
 * Every command of a block, {@code MULTI} and {@code EXEC}
 * included, reaches Redis at most once: after a reconnect, Lettuce's replay of a block whose replies
 * were lost applies nothing, and the block fails with an {@link UnacknowledgedWriteException}
 * (applied or not: unknown). Thread-safe.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public final class TransactionLane<K, V> implements AutoCloseable {

	private final ConnectionHolder<K, V> connections;

	/**
	 * A lane over {@code connections}, which it owns: nothing else may send on them.
	 * @param connections a holder that opens connections for this lane alone, never {@code null}
	 */
	public TransactionLane(ConnectionHolder<K, V> connections) {
		this.connections = connections;
	}

	/**
	 * Runs {@code commands} between {@code MULTI} and {@code EXEC}, in database {@code database}
	 * (standalone) or on the master of {@code slotKey}'s slot (cluster); every key of the commands
	 * must be in that slot. Build each command with {@link #command}, for one block only, and leave
	 * the list as it is once given here.
	 * @return the future of {@code EXEC}'s reply: the replies of the commands in order (a command
	 * Redis refused holds its exception), or a failure when the transaction did not run
	 */
	public CompletableFuture<TransactionResult> execute(int database, K slotKey,
			List<? extends SlipcaseCommand<K, V, ?>> commands) {
		TransactionBlock decision = new TransactionBlock();
		for (int i = 0; i < commands.size(); i++) {
			if (!commands.get(i).joinBlock(decision)) {
				throw new IllegalArgumentException("A block's commands are each made by TransactionLane.command "
						+ "and used in one block only");
			}
		}
		BlockResult result = new BlockResult(decision);
		OrderedDispatcher<K, V> dispatcher = this.connections.dispatcher(database);
		if (dispatcher.isDone() && !dispatcher.isCompletedExceptionally()
				&& dispatcher.join() instanceof StatefulRedisConnection<K, V> open) {
			withoutCommandTimeout(open);
			send(open, this.connections.codec(), decision, commands, result); // open and standalone
			return result;
		}
		connectionFor(dispatcher, slotKey).whenComplete((connection, ex) -> {
			if (ex != null) {
				Throwable failure = RedisFailures.unwrap(ex);
				commands.forEach((command) -> command.completeExceptionally(failure));
				result.completeExceptionally(failure);
				return;
			}
			withoutCommandTimeout(connection);
			send(connection, this.connections.codec(), decision, commands, result);
		});
		return result;
	}

	/**
	 * Sends a block as one {@link BlockCommand} when the connection's channel has a
	 * {@link MultiReplyCommandHandler}, else as {@code MULTI}, the commands and {@code EXEC}.
	 */
	private static <K, V> void send(StatefulRedisConnection<K, V> connection, RedisCodec<K, V> codec,
			TransactionBlock decision, List<? extends SlipcaseCommand<K, V, ?>> commands,
			CompletableFuture<TransactionResult> result) {
		if (MultiReplyCommandHandler.isInstalledOn(connection)) {
			OrderedDispatcher.sendTogether(connection, new BlockCommand<>(codec, decision, commands, result, connection),
					connection);
			return;
		}
		sendSeparately(connection, codec, decision, commands, result);
	}

	/** Sends {@code MULTI}, the block's {@code commands} and {@code EXEC} as separate commands, in one dispatch. */
	static <K, V> void sendSeparately(StatefulRedisConnection<K, V> connection, RedisCodec<K, V> codec,
			TransactionBlock decision, List<? extends SlipcaseCommand<K, V, ?>> commands,
			CompletableFuture<TransactionResult> result) {
		SlipcaseCommand<K, V, String> multi = SlipcaseCommand.delimiting(decision, true, BlockKeyword.MULTI,
				new StatusOutput<>(codec));
		ExecOutput<K, V> replies = new ExecOutput<>(codec, commands);
		SlipcaseCommand<K, V, TransactionResult> exec = SlipcaseCommand.delimiting(decision, false, BlockKeyword.EXEC,
				replies);
		List<RedisCommand<K, V, ?>> block = new ArrayList<>(commands.size() + 2);
		block.add(multi);
		block.addAll(commands);
		block.add(exec);
		exec.whenComplete((reply, ex) -> {
			Throwable refused = multi.isCompletedExceptionally() ? multi.handle((ok, e) -> e).join() : null;
			Throwable failure = blockFailure((refused instanceof RedisCommandExecutionException) ? refused.getMessage()
					: null, replies, ex);
			// every command ends with its block
			failRemaining(commands, failure);
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(reply);
			}
		});
		OrderedDispatcher.sendTogether(connection, block, connection);
	}

	/**
	 * A command for {@link #execute}: sent at most once, and only with its whole block. It completes
	 * with its element of {@code EXEC}'s reply, or fails with the error Redis queued it with, or, when
	 * {@code EXEC} fails, with that failure (the block given up, the reply lost).
	 */
	public static <K, V, T> SlipcaseCommand<K, V, T> command(CommandType type, CommandOutput<K, V, T> output,
			CommandArgs<K, V> args) {
		return SlipcaseCommand.queued(type, output, args);
	}

	/**
	 * What a block failed with, {@code null} when it ran: {@code EXEC}'s own failure, or, where the
	 * commands may have run otherwise than as one transaction (Redis refused {@code MULTI}, and ran
	 * each command on its own or refused it; {@code EXEC} answered for another number of commands),
	 * an {@link UnacknowledgedWriteException}: what was applied is unknown.
	 */
	static @Nullable Throwable blockFailure(@Nullable String multiError, ExecOutput<?, ?> replies,
			@Nullable Throwable execFailure) {
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
		return execFailure;
	}

	/**
	 * Fails the commands of a block that have no reply of their own: each with the error Redis
	 * refused to queue it with, if any, else with the block's {@code failure} (when the block ran,
	 * with one saying {@code EXEC} held no reply to it).
	 */
	static void failRemaining(List<? extends SlipcaseCommand<?, ?, ?>> commands, @Nullable Throwable failure) {
		for (int i = 0; i < commands.size(); i++) {
			SlipcaseCommand<?, ?, ?> command = commands.get(i);
			if (command.isDone()) {
				continue;
			}
			String refused = command.getOutput().getError();
			command.completeExceptionally((refused != null) ? new RedisCommandExecutionException(refused)
					: (failure != null) ? failure
							: new UnacknowledgedWriteException("EXEC's reply held no reply to this command"));
		}
	}

	private CompletableFuture<StatefulRedisConnection<K, V>> connectionFor(OrderedDispatcher<K, V> dispatcher, K slotKey) {
		return dispatcher.thenCompose((connection) -> {
			if (connection instanceof StatefulRedisClusterConnection<K, V> cluster) {
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

	@SuppressWarnings("unchecked")
	private static <K, V> StatefulRedisConnection<K, V> standalone(StatefulConnection<K, V> connection) {
		return (StatefulRedisConnection<K, V>) connection;
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
