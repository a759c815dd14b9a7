package dev.slipcase.redis.lettuce;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

/**
 * A connection being opened, as a future, with the commands sent to it meanwhile held in the
 * order they were sent: once the connection is open they are dispatched in that order, before the
 * future completes and before any command sent later; if it cannot be opened each fails with the
 * cause. A plain future's dependents run in no promised order (in practice the last added first),
 * so commands that waited on one for the same connection went out in reverse.
 * <p>
 * Holds the waiting commands until then; a command owns and releases its own arguments however
 * it ends. Thread-safe.
 *
 * @param <K> the key type of the connection's codec
 * @param <V> the value type of the connection's codec
 */
final class OpeningConnection<K, V> extends CompletableFuture<StatefulConnection<K, V>> {

	/** Commands, and lists of commands to dispatch in one write, in the order they were sent. */
	private final ArrayDeque<Object> waiting = new ArrayDeque<>();

	/**
	 * Set once the commands that waited are dispatched or failed, after {@link #connection} or
	 * {@link #failure}: from then on a command is dispatched at once, without the monitor.
	 */
	private volatile boolean settled;

	private @Nullable StatefulConnection<K, V> connection;

	private @Nullable Throwable failure;

	/** Follows {@code opening}: completes as it does, once the commands waiting on it are dispatched. */
	OpeningConnection(CompletableFuture<StatefulConnection<K, V>> opening) {
		opening.whenComplete(this::settle);
	}

	/** Dispatches {@code command} once the connection is open, after the commands sent before it. */
	void send(RedisCommand<K, V, ?> command) {
		sendOrHold(command);
	}

	/** Dispatches {@code commands} in one write once the connection is open, after the commands sent before them. */
	void send(List<? extends RedisCommand<K, V, ?>> commands) {
		sendOrHold(commands);
	}

	private void sendOrHold(Object commands) {
		if (!this.settled) {
			synchronized (this) {
				if (!this.settled) {
					this.waiting.add(commands);
					return;
				}
			}
		}
		StatefulConnection<K, V> open = this.connection;
		Throwable cause = this.failure;
		if (open != null) {
			dispatch(open, commands);
		}
		else {
			fail(commands, cause);
		}
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
			Object commands;
			synchronized (this) {
				commands = this.waiting.poll();
				if (commands == null) {
					this.connection = opened;
					this.failure = cause;
					this.settled = true;
					break;
				}
			}
			if (opened != null) {
				// at once, on this thread: nothing was dispatched to the connection before them
				dispatchNow(opened, commands);
			}
			else {
				fail(commands, cause);
			}
		}
		if (opened != null) {
			complete(opened);
		}
		else {
			completeExceptionally(cause);
		}
	}

	@SuppressWarnings("unchecked")
	private static <K, V> void dispatch(StatefulConnection<K, V> connection, Object commands) {
		if (commands instanceof List<?> list) {
			OrderedDispatch.dispatch(connection, (List<? extends RedisCommand<K, V, ?>>) list, null);
		}
		else {
			OrderedDispatch.dispatch(connection, (RedisCommand<K, V, ?>) commands);
		}
	}

	@SuppressWarnings("unchecked")
	private static <K, V> void dispatchNow(StatefulConnection<K, V> connection, Object commands) {
		if (commands instanceof List<?> list) {
			OrderedDispatch.dispatchNow(connection, (List<? extends RedisCommand<K, V, ?>>) list, null);
		}
		else {
			OrderedDispatch.dispatchNow(connection, (RedisCommand<K, V, ?>) commands);
		}
	}

	private static void fail(Object commands, @Nullable Throwable failure) {
		Throwable cause = (failure != null) ? RedisFailures.unwrap(failure)
				: new IllegalStateException("The connection could not be opened");
		if (commands instanceof List<?> list) {
			list.forEach((command) -> ((RedisCommand<?, ?, ?>) command).completeExceptionally(cause));
		}
		else {
			((RedisCommand<?, ?, ?>) commands).completeExceptionally(cause);
		}
	}

}
