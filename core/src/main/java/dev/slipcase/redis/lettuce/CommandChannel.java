package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Where the commands of a template go: one database of a {@link ConnectionHolder}, with the
 * command timeout its sync methods wait for. Sends one command at once ({@link #submit}) through the
 * database's {@link OrderedDispatcher}, many in one write ({@link #pipeline()}), waits for replies
 * with one exception contract for every sync path ({@link #await}, {@link #call}; statically for
 * callers without a channel), and scans keys, across every master of a cluster. Thread-safe; its
 * one mutable field caches the holder's dispatcher.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public final class CommandChannel<K, V> implements CommandSink<K, V> {

	private final ConnectionHolder<K, V> connections;

	private final int database;

	private final Duration timeout;

	/** The dispatcher {@link #dispatcher()} last had from the holder; asked for again once unusable. */
	private volatile @Nullable OrderedDispatcher<K, V> dispatcher;

	/**
	 * The channel to {@code database} of {@code connections}.
	 * @param timeout how long sync callers wait for a reply, never {@code null}
	 */
	public CommandChannel(ConnectionHolder<K, V> connections, int database, Duration timeout) {
		this.connections = connections;
		this.database = database;
		this.timeout = timeout;
	}

	/** The same connections and timeout, another database. */
	public CommandChannel<K, V> forDatabase(int database) {
		return new CommandChannel<>(this.connections, database, this.timeout);
	}

	/** The connections this channel sends on. */
	public ConnectionHolder<K, V> connections() {
		return this.connections;
	}

	/** The database commands go to. */
	public int database() {
		return this.database;
	}

	/** How long sync callers wait for a reply. */
	public Duration timeout() {
		return this.timeout;
	}

	/** Whether the connections are to a Redis Cluster. */
	public boolean isCluster() {
		return this.connections.isCluster();
	}

	/**
	 * Writes {@code command} at once, or as soon as the connection is open.
	 * @return {@code command}, which completes when Redis replies
	 */
	@Override
	public <T, C extends SlipcaseCommand<K, V, T>> C submit(C command) {
		return dispatcher().send(command);
	}

	/**
	 * The dispatcher of this channel's database (see {@link ConnectionHolder#dispatcher}): the one
	 * the holder last gave, while it {@linkplain OrderedDispatcher#isUsable() is usable}.
	 */
	public OrderedDispatcher<K, V> dispatcher() {
		OrderedDispatcher<K, V> current = this.dispatcher;
		if (current == null || !current.isUsable()) {
			current = this.connections.dispatcher(this.database);
			this.dispatcher = current;
		}
		return current;
	}

	/** A new, empty pipeline to this channel's database. */
	public Pipeline<K, V> pipeline() {
		return new Pipeline<>(this.connections, this.database);
	}

	/**
	 * Sends {@code command} and waits for its reply, see {@link #await(Future, Duration, String, Object)}.
	 * @param action what is being done, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 */
	public <T> T call(SlipcaseCommand<K, V, T> command, String action, @Nullable Object key) {
		return await(submit(command), action, key);
	}

	/** Sends {@code script} alone, see {@link Pipeline#script}; the future completes with its reply. */
	public <T> CompletableFuture<T> sendScript(LuaScript script, Supplier<? extends CommandOutput<K, V, T>> output,
			List<K> keys, Consumer<CommandArgs<K, V>> argv) {
		Pipeline<K, V> alone = pipeline();
		CompletableFuture<T> reply = alone.script(script, output, keys, argv);
		alone.send();
		return reply;
	}

	/** Waits for one reply within the timeout, see {@link #await(Future, Duration, String, Object)}. */
	public <T> T await(Future<T> reply, String action, @Nullable Object key) {
		return await(reply, this.timeout, action, key);
	}

	/**
	 * The reply of the command {@code send} sends when the reply is first asked for, within the
	 * timeout, see {@link ReactiveReplies#mono}.
	 */
	public <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, String action, @Nullable Object key) {
		return ReactiveReplies.mono(send, this.timeout, action, key);
	}

	/**
	 * Completes once every reply completed, as {@link #awaitAll} returns: failing with the first
	 * failure in the order given, translated, when any failed.
	 * @param action what the replies are for, as in "Redis failed to {@code action}": asked for only
	 * when one failed
	 */
	public CompletableFuture<Void> all(Collection<? extends CompletableFuture<?>> replies, Supplier<String> action) {
		return settled(replies).thenRun(() -> {
			for (CompletableFuture<?> reply : replies) {
				if (reply.isCompletedExceptionally()) {
					throw RedisFailures.translate(reply.handle((value, failure) -> failure).join(), action.get());
				}
			}
		});
	}

	/** Completes once every reply completed, successfully or not, as {@link #awaitSettled} returns. */
	public static CompletableFuture<Void> settled(Collection<? extends CompletableFuture<?>> replies) {
		if (replies.size() == 1) {
			return replies.iterator().next().handle((value, failure) -> null);
		}
		return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).handle((value, failure) -> null);
	}

	/** Waits for every reply within one timeout, see {@link #awaitAll(Collection, Duration, String, Object)}. */
	public void awaitAll(Collection<? extends Future<?>> replies, String action, @Nullable Object key) {
		awaitAll(replies, this.timeout, action, key);
	}

	/**
	 * Waits until every command completed, successfully or not, see
	 * {@link #awaitSettled(Collection, Duration, String, Object)}.
	 */
	public void awaitSettled(Collection<? extends Future<?>> replies, String action, @Nullable Object key) {
		awaitSettled(replies, this.timeout, action, key);
	}

	/**
	 * The result of one command, with one contract: the reply, or the failure as
	 * {@link RedisFailures#translate} turns it into a Spring {@code DataAccessException} (a
	 * {@code SerializationException} stays one). A command that does not complete within the timeout,
	 * or whose caller is interrupted while waiting, is cancelled, which releases the buffers it owns;
	 * a command already written may still be applied by Redis, which the exception says. What was
	 * being done is turned into text only when something fails.
	 * @param reply the command or a future that completes with it, never {@code null}
	 * @param timeout how long to wait, never {@code null}
	 * @param action what is being done, such as {@code "get"}, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 * @throws org.springframework.dao.QueryTimeoutException when the timeout passed (the command was
	 * cancelled)
	 */
	public static <T> T await(Future<T> reply, Duration timeout, String action, @Nullable Object key) {
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
	public static void awaitAll(Collection<? extends Future<?>> replies, Duration timeout, String action,
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
	public static void awaitSettled(Collection<? extends Future<?>> replies, Duration timeout, String action,
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

	/**
	 * Scans the keys matching {@code pattern} with {@code SCAN} (on a cluster, the keys of every
	 * master, as Lettuce's cluster {@code SCAN} does), handing each non-empty page to {@code page}
	 * until it returns {@code false} or the scan is complete. Each page waits up to the timeout.
	 * @param count the {@code COUNT} hint per page
	 */
	public void scan(String pattern, int count, Predicate<List<K>> page) {
		ScanArgs args = ScanArgs.Builder.matches(pattern).limit(count);
		RedisClusterAsyncCommands<K, V> commands = commands(await(this.connections.get(this.database), "connect", null));
		ScanCursor cursor = ScanCursor.INITIAL;
		while (true) {
			KeyScanCursor<K> keys = await(commands.scan(cursor, args), "scan", pattern);
			if ((!keys.getKeys().isEmpty() && !page.test(keys.getKeys())) || keys.isFinished()) {
				return;
			}
			cursor = keys;
		}
	}

	private static <K, V> RedisClusterAsyncCommands<K, V> commands(StatefulConnection<K, V> connection) {
		if (connection instanceof StatefulRedisClusterConnection<K, V> cluster) {
			return cluster.async();
		}
		return ((StatefulRedisConnection<K, V>) connection).async();
	}

}
