package dev.slipcase.redis.sharded;

import java.util.function.Supplier;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The {@code byte[]} connection that the sharded templates of one {@link ShardedTemplates} share,
 * with its asynchronous commands.
 * <p>
 * Opened from a client source, a connection that was closed for good (its client shut down, as
 * Spring's {@code LettuceConnectionFactory.stop()} does) is replaced on next use by one from the
 * source's current client, so templates keep working after a connection factory's stop and start.
 * A connection that merely lost its channel is left to Lettuce's own reconnect. A connection the
 * caller owns, or one closed through {@link #close()}, is never replaced. Thread-safe.
 */
final class ShardedConnection implements AutoCloseable {

	private final @Nullable Supplier<? extends AbstractRedisClient> clients;

	private volatile Current current;

	/** Whether {@link #close()} was called: a connection closed by its owner stays closed. */
	private volatile boolean closed;

	private ShardedConnection(@Nullable Supplier<? extends AbstractRedisClient> clients, Current current) {
		this.clients = clients;
		this.current = current;
	}

	/** Opens a connection from the source's current client, and again whenever that one is closed for good. */
	static ShardedConnection open(Supplier<? extends AbstractRedisClient> clients) {
		Assert.notNull(clients, "clients must not be null");
		return new ShardedConnection(clients, Current.of(connect(clients.get())));
	}

	/** Uses a connection the caller owns, as it is. */
	static ShardedConnection of(StatefulConnection<byte[], byte[]> connection) {
		return new ShardedConnection(null, Current.of(connection));
	}

	/** The connection, replaced first if it was closed for good and can be replaced. */
	StatefulConnection<byte[], byte[]> connection() {
		return current().connection();
	}

	/** The connection's asynchronous commands, common to standalone and cluster connections. */
	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return current().commands();
	}

	private Current current() {
		Current now = this.current;
		if (this.clients != null && !this.closed && isClosedForGood(now.connection())) {
			synchronized (this) {
				now = this.current;
				if (!this.closed && isClosedForGood(now.connection())) {
					now = Current.of(connect(this.clients.get()));
					this.current = now;
				}
			}
		}
		return now;
	}

	private static boolean isClosedForGood(StatefulConnection<?, ?> connection) {
		return connection instanceof RedisChannelHandler<?, ?> handler && handler.isClosed();
	}

	private static StatefulConnection<byte[], byte[]> connect(AbstractRedisClient client) {
		Assert.notNull(client, "client must not be null");
		if (client instanceof RedisClusterClient cluster) {
			return cluster.connect(ByteArrayCodec.INSTANCE);
		}
		if (client instanceof RedisClient standalone) {
			return standalone.connect(ByteArrayCodec.INSTANCE);
		}
		throw new IllegalArgumentException("client must be a RedisClient or RedisClusterClient, was "
				+ client.getClass().getName());
	}

	/** Closes the current connection for good: it is not replaced afterwards. */
	@Override
	public void close() {
		synchronized (this) {
			this.closed = true;
			this.current.connection().close();
		}
	}

	/** A connection and its asynchronous commands, replaced together. */
	private record Current(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands) {

		@SuppressWarnings("unchecked")
		static Current of(StatefulConnection<byte[], byte[]> connection) {
			if (connection instanceof StatefulRedisClusterConnection<?, ?> cluster) {
				return new Current(connection, (RedisClusterAsyncCommands<byte[], byte[]>) cluster.async());
			}
			if (connection instanceof StatefulRedisConnection<?, ?> standalone) {
				return new Current(connection, (RedisClusterAsyncCommands<byte[], byte[]>) standalone.async());
			}
			throw new IllegalArgumentException("connection must be a StatefulRedisConnection or "
					+ "StatefulRedisClusterConnection, was " + connection.getClass().getName());
		}

	}

}
