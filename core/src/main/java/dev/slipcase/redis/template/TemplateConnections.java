package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.codec.EncodedValue;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;

/**
 * The connections of one template and its per-database views: one shared, multiplexed connection
 * per database, opened on first use without blocking the caller (the open is a future that
 * commands chain on), and opened again on the next use if opening failed. Thread-safe.
 */
final class TemplateConnections implements AutoCloseable {

	/** Opens a connection to one database; must not block. */
	@FunctionalInterface
	interface Connector {

		CompletableFuture<StatefulConnection<String, EncodedValue>> connect(int database);

	}

	private final Connector connector;

	private final boolean cluster;

	private final int defaultDatabase;

	private final Duration timeout;

	private final ConcurrentHashMap<Integer, CompletableFuture<StatefulConnection<String, EncodedValue>>> open = new ConcurrentHashMap<>();

	private volatile boolean closed;

	TemplateConnections(Connector connector, boolean cluster, int defaultDatabase, Duration timeout) {
		this.connector = connector;
		this.cluster = cluster;
		this.defaultDatabase = defaultDatabase;
		this.timeout = timeout;
	}

	boolean isCluster() {
		return this.cluster;
	}

	int defaultDatabase() {
		return this.defaultDatabase;
	}

	Duration timeout() {
		return this.timeout;
	}

	CompletableFuture<StatefulConnection<String, EncodedValue>> get(int database) {
		if (this.closed) {
			return CompletableFuture.failedFuture(new IllegalStateException("The template is closed"));
		}
		CompletableFuture<StatefulConnection<String, EncodedValue>> connection = this.open.get(database);
		if (connection != null && isUsable(connection)) {
			return connection;
		}
		return this.open.compute(database, (db, existing) -> {
			if (existing != null && isUsable(existing)) {
				return existing;
			}
			if (existing != null && !existing.isCompletedExceptionally()) {
				existing.join().closeAsync();
			}
			return this.connector.connect(db);
		});
	}

	/**
	 * Whether a connection (or one being opened) can take commands: not failed to open, and not
	 * disconnected for good. A connection that reconnects by itself (Lettuce's default) stays in
	 * use while it reconnects, its commands queued and retried; one without auto-reconnect is
	 * replaced once it lost its channel, and so is one that was closed (its client shut down, as
	 * stopping Spring's connection factory does), which never reconnects.
	 */
	private static boolean isUsable(CompletableFuture<StatefulConnection<String, EncodedValue>> connection) {
		if (!connection.isDone()) {
			return true;
		}
		if (connection.isCompletedExceptionally()) {
			return false;
		}
		StatefulConnection<String, EncodedValue> open = connection.join();
		if (open instanceof RedisChannelHandler<?, ?> handler && handler.isClosed()) {
			return false;
		}
		return open.isOpen() || open.getOptions().isAutoReconnect();
	}

	/** Closes every connection opened so far, waiting up to the command timeout for each. */
	@Override
	public void close() {
		this.closed = true;
		List<CompletableFuture<Void>> closing = new ArrayList<>();
		this.open.values()
			.forEach((connection) -> closing.add(connection.thenCompose(StatefulConnection::closeAsync)
				.exceptionally((ex) -> null)));
		this.open.clear();
		try {
			CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
				.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
