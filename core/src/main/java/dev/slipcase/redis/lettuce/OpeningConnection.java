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
 * cause.
 * <p>
 * Holds the waiting commands until then; a command owns and releases its own arguments however
 * it ends. Thread-safe.
 *
 * @param <K> the key type of the connection's codec
 * @param <V> the value type of the connection's codec
 */
final class OpeningConnection<K, V> extends CompletableFuture<StatefulConnection<K, V>> {

	/** What was sent while the connection opened, in the order it was sent. */
	private final ArrayDeque<Held<K, V>> waiting = new ArrayDeque<>();

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
		if (!this.settled && hold(new OneCommand<>(command))) {
			return;
		}
		StatefulConnection<K, V> open = this.connection;
		if (open != null) {
			OrderedDispatch.dispatch(open, command);
		}
		else {
			new OneCommand<>(command).fail(this.failure);
		}
	}

	/** Dispatches {@code commands} in one write once the connection is open, after the commands sent before them. */
	void send(List<? extends RedisCommand<K, V, ?>> commands) {
		if (!this.settled && hold(new CommandList<>(commands))) {
			return;
		}
		StatefulConnection<K, V> open = this.connection;
		if (open != null) {
			OrderedDispatch.dispatch(open, commands, null);
		}
		else {
			new CommandList<>(commands).fail(this.failure);
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
			OrderedDispatch.dispatchNow(connection, this.command);
		}

		@Override
		public void fail(@Nullable Throwable failure) {
			this.command.completeExceptionally(failureOf(failure));
		}

	}

	private record CommandList<K, V>(List<? extends RedisCommand<K, V, ?>> commands) implements Held<K, V> {

		@Override
		public void dispatchNow(StatefulConnection<K, V> connection) {
			OrderedDispatch.dispatchNow(connection, this.commands, null);
		}

		@Override
		public void fail(@Nullable Throwable failure) {
			Throwable cause = failureOf(failure);
			this.commands.forEach((command) -> command.completeExceptionally(cause));
		}

	}

}
