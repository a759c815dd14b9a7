package dev.slipcase.redis.lettuce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import org.jspecify.annotations.Nullable;

/**
 * Sends commands to one Lettuce connection in the order they were sent, whichever threads send
 * them: the one step between Slipcase's commands and Lettuce's {@code dispatch}. While the
 * connection opens, commands are held and then dispatched in order, before this future completes
 * and before any command sent later, or each fails with the cause when it cannot be opened. Once it
 * is open, a command is dispatched at once, except that one sent on the connection's own event loop
 * ({@link CommandLoops}) while that loop has tasks queued is queued behind them: Netty writes at
 * once what is handed over on the loop and queues what other threads hand over. A command the
 * connection refuses completes with that failure.
 * <p>
 * Completes with the connection once it is open. Holds the waiting commands until then; a command
 * owns and releases its own arguments however it ends. Thread-safe.
 *
 * @param <K> the key type of the connection's codec
 * @param <V> the value type of the connection's codec
 */
public final class OrderedDispatcher<K, V> extends CompletableFuture<StatefulConnection<K, V>> {

	/** What was sent while the connection opened, in the order it was sent. */
	private final ArrayDeque<Held<K, V>> waiting = new ArrayDeque<>();

	/**
	 * Set once the commands that waited are dispatched or failed, after {@link #connection} or
	 * {@link #failure}: from then on a command is dispatched at once, without the monitor.
	 */
	private volatile boolean settled;

	private @Nullable StatefulConnection<K, V> connection;

	private @Nullable Throwable failure;

	/** Whether a connection that failed to open or closed for good makes this dispatcher unusable. */
	private final boolean replaceable;

	/** Set when the holder that made this dispatcher closes, {@code null} for one of no holder's. */
	private final @Nullable AtomicBoolean holderClosed;

	/** Follows {@code opening}: completes as it does, once the commands waiting on it are dispatched. */
	OrderedDispatcher(CompletableFuture<? extends StatefulConnection<K, V>> opening) {
		this(opening, true, null);
	}

	/**
	 * Follows {@code opening}, as {@link #OrderedDispatcher(CompletableFuture)} does.
	 * @param replaceable whether {@link #isUsable()} turns {@code false} once the connection failed to
	 * open or closed for good; {@code false} for a connection its caller owns, used as it is
	 * @param holderClosed the closed flag of the holder that made it, which it shares with every
	 * dispatcher of that holder: set, they are all unusable at once
	 */
	OrderedDispatcher(CompletableFuture<? extends StatefulConnection<K, V>> opening, boolean replaceable,
			@Nullable AtomicBoolean holderClosed) {
		this.replaceable = replaceable;
		this.holderClosed = holderClosed;
		opening.whenComplete(this::settle);
	}

	/** The dispatcher of a connection that is open already. */
	public static <K, V> OrderedDispatcher<K, V> of(StatefulConnection<K, V> connection) {
		return new OrderedDispatcher<>(CompletableFuture.completedFuture(connection));
	}

	/** A dispatcher that fails every command with {@code failure}: there is no connection to send on. */
	static <K, V> OrderedDispatcher<K, V> failing(Throwable failure) {
		return new OrderedDispatcher<>(CompletableFuture.failedFuture(failure));
	}

	/**
	 * Whether this dispatcher can take commands: its holder has not closed, and, for a
	 * {@linkplain #OrderedDispatcher(CompletableFuture, boolean, AtomicBoolean) replaceable} one,
	 * the connection has not failed to open and is not disconnected for good. A connection that reconnects by itself
	 * (Lettuce's default) stays usable while it reconnects, its commands queued and retried; one
	 * without auto-reconnect is unusable once it lost its channel, and so is one that was closed
	 * (its client shut down, as stopping Spring's connection factory does), which never reconnects.
	 * Once unusable, never usable again.
	 */
	boolean isUsable() {
		if (this.holderClosed != null && this.holderClosed.get()) {
			return false;
		}
		if (!this.replaceable || !isDone()) {
			return true;
		}
		if (isCompletedExceptionally()) {
			return false;
		}
		StatefulConnection<K, V> open = join();
		if (open instanceof RedisChannelHandler<?, ?> handler && handler.isClosed()) {
			return false;
		}
		return open.isOpen() || open.getOptions().isAutoReconnect();
	}

	/**
	 * Dispatches {@code command} after every command sent before it, at once or once the
	 * connection is open.
	 * @return {@code command}, which completes when Redis replies
	 */
	public <C extends RedisCommand<K, V, ?>> C send(C command) {
		if (!this.settled && hold(new OneCommand<>(command))) {
			return command;
		}
		StatefulConnection<K, V> open = this.connection;
		if (open != null) {
			dispatch(open, command);
		}
		else {
			new OneCommand<>(command).fail(this.failure);
		}
		return command;
	}

	/**
	 * Dispatches {@code commands} in one write (on a cluster, one per node) after every command
	 * sent before them, at once or once the connection is open.
	 */
	public void send(List<? extends RedisCommand<K, V, ?>> commands) {
		if (commands.isEmpty() || (!this.settled && hold(new CommandList<>(commands)))) {
			return;
		}
		StatefulConnection<K, V> open = this.connection;
		if (open != null) {
			dispatch(open, commands);
		}
		else {
			new CommandList<>(commands).fail(this.failure);
		}
	}

	/**
	 * Dispatches {@code commands} to the open {@code connection} in one write, holding
	 * {@code lock} while they are dispatched so that they are never split or interleaved with
	 * another such dispatch (a transaction block), after every dispatch that happened before. Lettuce
	 * queues one write task per command on the channel's event loop: a thread holding the lock may
	 * have queued some of its block when the loop runs them, so the loop itself never writes a block
	 * at once but queues its dispatch, under the lock, behind the blocks already queued whole. An
	 * event loop that cannot tell the channel (not connected) queues it on itself, behind those it
	 * queued before. Any other thread too hands the dispatch to the channel's loop, so that every
	 * command of the block is encoded in one task: dispatched from another thread, Lettuce queues a
	 * task per command, and a connection that closes between two of them would have written the
	 * block's {@code MULTI} but not the commands after it, which a reconnect then writes alone.
	 */
	static <K, V> void sendTogether(StatefulConnection<K, V> connection, List<? extends RedisCommand<K, V, ?>> commands,
			Object lock) {
		EventExecutor loop = CommandLoops.of(connection);
		if (loop == null) {
			loop = ownLoop(connection);
		}
		if (loop != null) {
			synchronized (lock) {
				if (hop(loop, () -> dispatchNow(connection, commands, lock))) {
					return;
				}
			}
		}
		dispatchNow(connection, commands, lock);
	}

	/** As {@link #sendTogether(StatefulConnection, List, Object)}, for one command that holds a whole block. */
	static <K, V> void sendTogether(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command, Object lock) {
		EventExecutor loop = ownLoop(connection);
		if (loop != null) {
			synchronized (lock) {
				if (hop(loop, () -> dispatchNow(connection, command, lock))) {
					return;
				}
			}
		}
		dispatchNow(connection, command, lock);
	}

	/**
	 * The calling thread's event loop when it is {@code connection}'s, or cannot tell the channel's,
	 * where a block is queued behind those queued whole rather than written at once; else {@code null}.
	 */
	private static @Nullable EventExecutor ownLoop(StatefulConnection<?, ?> connection) {
		EventExecutor current = ThreadExecutorMap.currentExecutor();
		if (current == null || !current.inEventLoop()) {
			return null;
		}
		EventLoop loop = CommandLoops.of(connection);
		return (loop == null || loop == current) ? current : null;
	}

	/** Dispatches {@code command} on the calling thread holding {@code lock}. */
	private static <K, V> void dispatchNow(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command,
			Object lock) {
		try {
			synchronized (lock) {
				connection.dispatch(command);
			}
		}
		catch (RuntimeException ex) {
			command.completeExceptionally(ex);
		}
	}

	/**
	 * Queues {@code sent} while the connection is not settled (nothing allocated for a send made
	 * after that); whether it was queued.
	 */
	private synchronized boolean hold(Held<K, V> sent) {
		if (this.settled) {
			return false;
		}
		this.waiting.add(sent);
		return true;
	}

	/**
	 * Dispatches (or fails) the waiting commands in order, outside the monitor: a dispatch may take
	 * a while (on a cluster Lettuce may wait for a node connection to open), and a sender must not
	 * wait for it, least of all an event loop that the dispatch needs. A command sent meanwhile (or
	 * by a command completed here, on this thread) joins the end of the queue; only once the queue
	 * is found empty are sends made at once.
	 */
	private void settle(@Nullable StatefulConnection<K, V> opened, @Nullable Throwable cause) {
		while (true) {
			Held<K, V> sent;
			synchronized (this) {
				sent = this.waiting.poll();
				if (sent == null) {
					this.connection = opened;
					this.failure = cause;
					this.settled = true;
					break;
				}
			}
			if (opened != null) {
				// at once, on this thread: nothing was dispatched to the connection before them
				sent.dispatchNow(opened);
			}
			else {
				sent.fail(cause);
			}
		}
		if (opened != null) {
			complete(opened);
		}
		else {
			completeExceptionally(cause);
		}
	}

	/**
	 * Dispatches {@code command} to {@code connection}, open and not this dispatcher's (a cluster
	 * node's, say), after every dispatch that happened before this one.
	 */
	static <K, V> void sendTo(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		dispatch(connection, command);
	}

	/** Dispatches {@code command} to {@code connection} after every dispatch that happened before this one. */
	private static <K, V> void dispatch(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		EventExecutor busy = busyCurrentLoop();
		if (busy == null || CommandLoops.of(connection, command) != busy
				|| !hop(busy, () -> dispatchNow(connection, command))) {
			dispatchNow(connection, command);
		}
	}

	/**
	 * Dispatches {@code commands} to {@code connection} in one write (on a cluster, one per node),
	 * after every dispatch that happened before this one: as one {@link BatchCommand} where
	 * {@link #batchOf} makes one.
	 */
	private static <K, V> void dispatch(StatefulConnection<K, V> connection,
			List<? extends RedisCommand<K, V, ?>> commands) {
		RedisCommand<K, V, ?> batch = batchOf(connection, commands);
		if (batch != null) {
			dispatch(connection, batch);
		}
		else {
			dispatchSeparately(connection, commands);
		}
	}

	/**
	 * {@code commands} as one {@link BatchCommand}, when they are two or more to a standalone
	 * connection whose channel reads several replies per command ({@link MultiReplyCommandHandler}),
	 * else {@code null}.
	 */
	private static <K, V> @Nullable RedisCommand<K, V, ?> batchOf(StatefulConnection<K, V> connection,
			List<? extends RedisCommand<K, V, ?>> commands) {
		if (commands.size() < 2 || connection instanceof StatefulRedisClusterConnection<?, ?>
				|| !MultiReplyCommandHandler.isInstalledOn(connection)) {
			return null;
		}
		return new BatchCommand<>(commands, connection);
	}

	/**
	 * Dispatches {@code commands} to {@code connection} each as a command of its own, in one write
	 * (on a cluster, one per node), after every dispatch that happened before this one.
	 */
	static <K, V> void dispatchSeparately(StatefulConnection<K, V> connection,
			List<? extends RedisCommand<K, V, ?>> commands) {
		EventExecutor busy = busyCurrentLoop();
		if (busy == null || commands.isEmpty()) {
			dispatchNow(connection, commands, null);
			return;
		}
		if (!(connection instanceof StatefulRedisClusterConnection<?, ?>)) {
			// one channel for all of them
			if (CommandLoops.of(connection, commands.get(0)) != busy
					|| !hop(busy, () -> dispatchNow(connection, commands, null))) {
				dispatchNow(connection, commands, null);
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
	private static <K, V> void dispatchNow(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		try {
			connection.dispatch(command);
		}
		catch (RuntimeException ex) {
			command.completeExceptionally(ex);
		}
	}

	/** Dispatches {@code commands} in one write on the calling thread, holding {@code lock} if not {@code null}. */
	private static <K, V> void dispatchNow(StatefulConnection<K, V> connection,
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

	/** The failure to complete a command with when the connection could not be opened. */
	private static Throwable failureOf(@Nullable Throwable failure) {
		return (failure != null) ? RedisFailures.unwrap(failure)
				: new IllegalStateException("The connection could not be opened");
	}

	/** A send held while the connection opens: one command, or a list of commands to dispatch in one write. */
	private sealed interface Held<K, V> permits OneCommand, CommandList {

		/** Dispatches on the calling thread at once. */
		void dispatchNow(StatefulConnection<K, V> connection);

		/** Completes every command with the open's failure. */
		void fail(@Nullable Throwable failure);

	}

	private record OneCommand<K, V>(RedisCommand<K, V, ?> command) implements Held<K, V> {

		@Override
		public void dispatchNow(StatefulConnection<K, V> connection) {
			OrderedDispatcher.dispatchNow(connection, this.command);
		}

		@Override
		public void fail(@Nullable Throwable failure) {
			this.command.completeExceptionally(failureOf(failure));
		}

	}

	private record CommandList<K, V>(List<? extends RedisCommand<K, V, ?>> commands) implements Held<K, V> {

		@Override
		public void dispatchNow(StatefulConnection<K, V> connection) {
			RedisCommand<K, V, ?> batch = batchOf(connection, this.commands);
			if (batch != null) {
				OrderedDispatcher.dispatchNow(connection, batch);
			}
			else {
				OrderedDispatcher.dispatchNow(connection, this.commands, null);
			}
		}

		@Override
		public void fail(@Nullable Throwable failure) {
			Throwable cause = failureOf(failure);
			this.commands.forEach((command) -> command.completeExceptionally(cause));
		}

	}

}
