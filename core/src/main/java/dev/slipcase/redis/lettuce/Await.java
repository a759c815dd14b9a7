package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import org.jspecify.annotations.Nullable;

/**
 * Waits for Redis replies on behalf of the sync APIs, with one contract: the reply, or the failure
 * as {@link RedisFailures#translate} turns it into a Spring {@code DataAccessException} (a
 * {@code SerializationException} stays one). A command that does not complete within the timeout,
 * or whose caller is interrupted while waiting, is cancelled, which releases the buffers it owns;
 * a command already written may still be applied by Redis, which the exception says. Thread-safe.
 * <p>
 * What was being done is given as an action and an optional key, and turned into text only when
 * something fails, so that a successful call builds no message.
 */
public final class Await {

	private Await() {
	}

	/**
	 * The result of one command.
	 * @param reply the command or a future that completes with it, never {@code null}
	 * @param timeout how long to wait, never {@code null}
	 * @param action what is being done, such as {@code "get"}, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 * @throws org.springframework.dao.QueryTimeoutException when the timeout passed (the command was
	 * cancelled)
	 */
	public static <T> T result(Future<T> reply, Duration timeout, String action, @Nullable Object key) {
		try {
			long waitNanos = timeout.toNanos();
			while (true) {
				try {
					return reply.get(waitNanos, TimeUnit.NANOSECONDS);
				}
				catch (TimeoutException ex) {
					// a call of several turns: the timeout counts from the start of the turn under way
					waitNanos = CallSteps.nanosLeft(reply, timeout.toNanos());
					if (waitNanos <= 0) {
						throw ex;
					}
				}
			}
		}
		catch (TimeoutException ex) {
			reply.cancel(false);
			throw RedisFailures.timedOut(what(action, key), timeout, null);
		}
		catch (InterruptedException ex) {
			reply.cancel(false);
			Thread.currentThread().interrupt();
			throw RedisFailures.interrupted(what(action, key), ex);
		}
		catch (ExecutionException | CancellationException ex) {
			throw RedisFailures.translate(ex, what(action, key));
		}
	}

	/**
	 * Waits for every command of a pipelined batch within one timeout for them all. When any
	 * failed, the first failure is thrown once every command completed; when the timeout passes,
	 * every command not yet complete is cancelled.
	 * @param replies the commands or futures following them, never {@code null}
	 * @param timeout how long to wait for all of them, never {@code null}
	 * @param action what is being done, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 */
	public static void all(Collection<? extends Future<?>> replies, Duration timeout, String action,
			@Nullable Object key) {
		Throwable failure = waitForAll(replies, timeout, action, key);
		if (failure != null) {
			throw RedisFailures.translate(failure, what(action, key));
		}
	}

	/**
	 * Waits until every command of a pipelined batch completed, successfully or not, within one
	 * timeout for them all, for a caller that looks at each command's outcome itself. When the
	 * timeout passes, every command not yet complete is cancelled.
	 * @param replies the commands or futures following them, never {@code null}
	 * @param timeout how long to wait for all of them, never {@code null}
	 * @param action what is being done, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 */
	public static void settled(Collection<? extends Future<?>> replies, Duration timeout, String action,
			@Nullable Object key) {
		waitForAll(replies, timeout, action, key);
	}

	/** Waits for every reply; the first failure, or {@code null}. */
	private static @Nullable Throwable waitForAll(Collection<? extends Future<?>> replies, Duration timeout,
			String action, @Nullable Object key) {
		long deadline = System.nanoTime() + timeout.toNanos();
		Throwable failure = null;
		for (Future<?> reply : replies) {
			try {
				reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				replies.forEach((pending) -> pending.cancel(false));
				throw RedisFailures.timedOut(what(action, key), timeout, null);
			}
			catch (InterruptedException ex) {
				replies.forEach((pending) -> pending.cancel(false));
				Thread.currentThread().interrupt();
				throw RedisFailures.interrupted(what(action, key), ex);
			}
			catch (ExecutionException | CancellationException ex) {
				if (failure == null) {
					failure = ex;
				}
			}
		}
		return failure;
	}

	/** What is being done, for a message: the action and the key, e.g. {@code get 'order:42'}. */
	static String what(String action, @Nullable Object key) {
		return (key != null) ? action + " '" + KeyedSerializationException.describe(key) + "'" : action;
	}

}
