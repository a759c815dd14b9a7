package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import org.jspecify.annotations.Nullable;

/**
 * Dispatches commands to a Lettuce connection so that they leave in the order their dispatches
 * happened, whichever threads made them. Netty writes at once what is handed over on the channel's
 * own event loop, but queues what other threads hand over as tasks of that loop; so a dispatch
 * made on that loop ({@link CommandLoops}) while it has tasks queued is queued behind them, and
 * any other is made at once. A command the connection refuses completes with that failure.
 * <p>
 * Holds no buffer: a command owns and releases its own arguments however it ends. Stateless and
 * thread-safe.
 */
public final class OrderedDispatch {

	private OrderedDispatch() {
	}

	/** Dispatches {@code command} to {@code connection} after every dispatch that happened before this one. */
	public static <K, V> void dispatch(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		EventExecutor busy = busyCurrentLoop();
		if (busy == null || CommandLoops.of(connection, command) != busy
				|| !hop(busy, () -> dispatchNow(connection, command))) {
			dispatchNow(connection, command);
		}
	}

	/**
	 * Dispatches {@code commands} to {@code connection} in one write (on a cluster, one per node),
	 * after every dispatch that happened before this one; {@code lock}, when not {@code null}, is
	 * held while they are dispatched, and the commands are then never split (they go to one
	 * connection, as a transaction block does).
	 */
	static <K, V> void dispatch(StatefulConnection<K, V> connection,
			List<? extends RedisCommand<K, V, ?>> commands, @Nullable Object lock) {
		EventExecutor busy = busyCurrentLoop();
		if (busy == null || commands.isEmpty()) {
			dispatchNow(connection, commands, lock);
			return;
		}
		if (lock != null || !(connection instanceof StatefulRedisClusterConnection<?, ?>)) {
			// one channel for all of them
			if (CommandLoops.of(connection, commands.get(0)) != busy
					|| !hop(busy, () -> dispatchNow(connection, commands, lock))) {
				dispatchNow(connection, commands, lock);
			}
			return;
		}
		// on a cluster, only those bound for a node whose channel is on this loop wait behind its tasks
		List<RedisCommand<K, V, ?>> here = new ArrayList<>();
		List<RedisCommand<K, V, ?>> elsewhere = new ArrayList<>();
		for (RedisCommand<K, V, ?> command : commands) {
			EventLoop loop = CommandLoops.of(connection, command);
			(loop == busy ? here : elsewhere).add(command);
		}
		if (!elsewhere.isEmpty()) {
			dispatchNow(connection, elsewhere, null);
		}
		if (!here.isEmpty() && !hop(busy, () -> dispatchNow(connection, here, null))) {
			dispatchNow(connection, here, null);
		}
	}

	/**
	 * The event loop of the calling thread when it has tasks queued (a write handed over by
	 * another thread may be among them), else {@code null}.
	 */
	private static @Nullable EventExecutor busyCurrentLoop() {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		if (current == null || !current.inEventLoop()) {
			return null;
		}
		if (current instanceof SingleThreadEventExecutor singleThread && singleThread.pendingTasks() == 0) {
			return null;
		}
		return current;
	}

	/** Queues {@code dispatch} on {@code loop}; whether it was taken (a loop shutting down refuses). */
	private static boolean hop(EventExecutor loop, Runnable dispatch) {
		try {
			loop.execute(dispatch);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/** Dispatches {@code command} on the calling thread; one the connection refuses completes with that failure. */
	static <K, V> void dispatchNow(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		try {
			connection.dispatch(command);
		}
		catch (RuntimeException ex) {
			command.completeExceptionally(ex);
		}
	}

	/** Dispatches {@code commands} in one write on the calling thread, holding {@code lock} if not {@code null}. */
	static <K, V> void dispatchNow(StatefulConnection<K, V> connection,
			Collection<? extends RedisCommand<K, V, ?>> commands, @Nullable Object lock) {
		try {
			if (lock != null) {
				synchronized (lock) {
					connection.dispatch(commands);
				}
			}
			else {
				connection.dispatch(commands);
			}
		}
		catch (RuntimeException ex) {
			commands.forEach((command) -> command.completeExceptionally(ex));
		}
	}

}
