package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.RedisCodec;
import org.jspecify.annotations.Nullable;

/**
 * The connections of one template and its views: one shared, multiplexed connection per
 * database, opened on first use without blocking the caller, each behind the
 * {@link OrderedDispatcher} that sends commands on it, and opened again on the next use when
 * opening failed or the connection was closed for good. A connection is closed for good when its
 * client shut down, as stopping Spring's {@code LettuceConnectionFactory} does; the
 * {@link Connector} then opens the next one from the factory's new client, so templates follow a
 * connection factory across stop and start.
 * <p>
 * A holder may instead {@link #borrowing borrow} one connection that its caller owns: that one is
 * used as it is, never replaced, and left open by {@link #close()}. Thread-safe.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public final class ConnectionHolder<K, V> implements AutoCloseable {

	/** Opens a connection to one database; must not block. */
	@FunctionalInterface
	public interface Connector<K, V> {

		/** A connection to {@code database}, or a future that fails when none can be opened. */
		CompletableFuture<StatefulConnection<K, V>> connect(int database);

	}

	private final Connector<K, V> connector;

	private final RedisCodec<K, V> codec;

	private final boolean cluster;

	private final int defaultDatabase;

	private final Duration closeTimeout;

	private final boolean owned;

	private final ConcurrentHashMap<Integer, OrderedDispatcher<K, V>> open = new ConcurrentHashMap<>();

	/** Set once by {@link #close()}; shared with every dispatcher this holder makes. */
	private final AtomicBoolean closed = new AtomicBoolean();

	private ConnectionHolder(Connector<K, V> connector, RedisCodec<K, V> codec, boolean cluster, int defaultDatabase,
			Duration closeTimeout, boolean owned) {
		this.connector = connector;
		this.codec = codec;
		this.cluster = cluster;
		this.defaultDatabase = defaultDatabase;
		this.closeTimeout = closeTimeout;
		this.owned = owned;
	}

	/**
	 * Connections this holder opens with {@code connector} and closes in {@link #close()}.
	 * @param connector opens a connection to a database, see {@link Connectors}; never {@code null}
	 * @param codec the codec of the connections, never {@code null}
	 * @param cluster whether the connections are to a Redis Cluster (database 0 only)
	 * @param defaultDatabase the database {@link #get()} returns a connection to
	 * @param closeTimeout how long {@link #close()} waits for each connection to close
	 */
	public static <K, V> ConnectionHolder<K, V> opening(Connector<K, V> connector, RedisCodec<K, V> codec,
			boolean cluster, int defaultDatabase, Duration closeTimeout) {
		return new ConnectionHolder<>(connector, codec, cluster, defaultDatabase, closeTimeout, true);
	}

	/**
	 * The one connection its caller owns, for every database this holder is asked for: never
	 * replaced, and left open by {@link #close()}.
	 * @param connection a standalone or cluster connection, never {@code null}
	 * @param codec the connection's codec, never {@code null}
	 */
	public static <K, V> ConnectionHolder<K, V> borrowing(StatefulConnection<K, V> connection, RedisCodec<K, V> codec) {
		CompletableFuture<StatefulConnection<K, V>> fixed = CompletableFuture.completedFuture(connection);
		return new ConnectionHolder<>((database) -> fixed, codec,
				connection instanceof StatefulRedisClusterConnection<?, ?>, 0, Duration.ZERO, false);
	}

	/**
	 * A holder that opens connections of its own with the same connector, for traffic that must
	 * not share a connection (see {@link TransactionLane}); {@code null} for a holder of a borrowed
	 * connection, which has no connector to open more.
	 */
	public @Nullable ConnectionHolder<K, V> separate() {
		return this.owned ? new ConnectionHolder<>(this.connector, this.codec, this.cluster, this.defaultDatabase,
				this.closeTimeout, true) : null;
	}

	/** Whether the connections are to a Redis Cluster. */
	public boolean isCluster() {
		return this.cluster;
	}

	/** The database of {@link #get()}. */
	public int defaultDatabase() {
		return this.defaultDatabase;
	}

	/** The codec of the connections. */
	public RedisCodec<K, V> codec() {
		return this.codec;
	}

	/** The connection to the default database, or the future of its opening. */
	public CompletableFuture<StatefulConnection<K, V>> get() {
		return get(this.defaultDatabase);
	}

	/**
	 * The connection to {@code database}, or the future of its opening; one that failed to open
	 * or was closed for good is replaced by a new one first.
	 * @return a future that fails with {@code IllegalStateException} once this holder is closed
	 */
	public CompletableFuture<StatefulConnection<K, V>> get(int database) {
		// a copy: a caller that gives up waiting cancels its own future, not the shared connection's
		return this.closed.get() ? CompletableFuture.failedFuture(closedFailure()) : dispatcher(database).copy();
	}

	/**
	 * The dispatcher of the connection to {@code database}, which sends commands on it in order, at
	 * once or as soon as it is open; a connection that failed to open or was closed for good is
	 * replaced by a new one first. Once this holder is closed, a dispatcher that fails every
	 * command with {@code IllegalStateException}.
	 */
	public OrderedDispatcher<K, V> dispatcher(int database) {
		if (this.closed.get()) {
			return OrderedDispatcher.failing(closedFailure());
		}
		OrderedDispatcher<K, V> connection = this.open.get(database);
		if (connection != null && connection.isUsable()) {
			return connection;
		}
		OrderedDispatcher<K, V> opened = this.open.compute(database, (db, existing) -> {
			if (existing != null && existing.isUsable()) {
				return existing;
			}
			if (existing != null && !existing.isCompletedExceptionally()) {
				existing.join().closeAsync();
			}
			return new OrderedDispatcher<>(this.connector.connect(db), this.owned, this.closed);
		});
		if (this.closed.get()) {
			// close() ran meanwhile: it set the flag before it took the connections, and this put the
			// connection in before reading the flag, so either close() closes it or this does
			this.open.remove(database, opened);
			opened.thenCompose(StatefulConnection::closeAsync).exceptionally((ex) -> null);
			return OrderedDispatcher.failing(closedFailure());
		}
		return opened;
	}

	private static IllegalStateException closedFailure() {
		return new IllegalStateException("The template is closed");
	}

	/**
	 * Closes every connection this holder opened, waiting up to the close timeout for them;
	 * commands sent afterwards fail with {@code IllegalStateException}. A holder of a borrowed
	 * connection does nothing: the connection stays its owner's to close.
	 */
	@Override
	public void close() {
		if (!this.owned) {
			return;
		}
		this.closed.set(true);
		List<CompletableFuture<Void>> closing = new ArrayList<>();
		this.open.values()
			.forEach((connection) -> closing.add(connection.thenCompose(StatefulConnection::closeAsync)
				.exceptionally((ex) -> null)));
		this.open.clear();
		try {
			CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
				.get(this.closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
