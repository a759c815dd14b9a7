package dev.slipcase.redis.lettuce;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * The ways a {@link ConnectionHolder} opens its connections: from the current client of a
 * supplier (such as a Spring connection factory's), from a {@link RedisClient} and a
 * {@link RedisURI}, or from a {@link RedisClusterClient}. None blocks the caller: a connect that
 * may block (a cluster loads its topology first) runs on a daemon thread of its own. Each applies
 * {@link WriteCoalescing} to its client before it connects. The standalone ones also open pub/sub
 * connections ({@link PubSubConnector}).
 */
public final class Connectors {

	private Connectors() {
	}

	/**
	 * Connects with the client {@code clients} supplies at that moment, so that a connection
	 * closed with a client that was shut down is followed by one from its successor (as
	 * {@code LettuceConnectionFactory::getRequiredNativeClient} supplies across the factory's stop
	 * and start). A standalone connection selects the database asked for when it is not the
	 * client's own; Lettuce selects it again after a reconnect. Also a {@link PubSubConnector} when
	 * the client is a {@link RedisClient}.
	 * @param clients supplies a {@link RedisClient} or {@link RedisClusterClient}, never {@code null}
	 * @param codec the codec, never {@code null}
	 * @param clientDatabase the database the client's connections start in
	 */
	public static <K, V> Connector<K, V> following(Supplier<? extends AbstractRedisClient> clients,
			RedisCodec<K, V> codec, int clientDatabase) {
		return new Following<>(clients, codec, clientDatabase);
	}

	/**
	 * Connects to the server of {@code uri}, in the database asked for. Also a
	 * {@link PubSubConnector}.
	 * @param client the client, never {@code null}
	 * @param uri where to connect, never {@code null}
	 * @param codec the codec, never {@code null}
	 */
	public static <K, V> Connector<K, V> of(RedisClient client, RedisURI uri, RedisCodec<K, V> codec) {
		return new Standalone<>(client, uri, codec);
	}

	/**
	 * Connects to a Redis Cluster (database 0 only). {@code connect()} loads the cluster's
	 * partitions first when the client has none yet, which {@code connectAsync} does not.
	 * @param client the client, never {@code null}
	 * @param codec the codec, never {@code null}
	 */
	public static <K, V> Connector<K, V> of(RedisClusterClient client, RedisCodec<K, V> codec) {
		return (database) -> CompletableFuture.supplyAsync(() -> {
			WriteCoalescing.applyTo(client);
			return client.connect(codec);
		}, Connectors::connectThread);
	}

	/**
	 * Whether {@code client} is one that {@link #following} can connect with.
	 * @throws IllegalArgumentException when it is neither a {@link RedisClient} nor a {@link RedisClusterClient}
	 */
	public static boolean isCluster(AbstractRedisClient client) {
		if (client instanceof RedisClusterClient) {
			return true;
		}
		if (client instanceof RedisClient) {
			return false;
		}
		throw new IllegalArgumentException("client must be a RedisClient or RedisClusterClient, was "
				+ client.getClass().getName());
	}

	private static <K, V> StatefulConnection<K, V> connect(AbstractRedisClient client, RedisCodec<K, V> codec) {
		if (client == null) {
			throw new IllegalStateException("The client supplier returned null");
		}
		WriteCoalescing.applyTo(client);
		return isCluster(client) ? ((RedisClusterClient) client).connect(codec) : ((RedisClient) client).connect(codec);
	}

	private static <K, V> CompletableFuture<StatefulConnection<K, V>> select(StatefulRedisConnection<K, V> connection,
			int database, int current) {
		if (database == current) {
			return CompletableFuture.completedFuture(connection);
		}
		return connection.async().select(database).toCompletableFuture().handle((ok, ex) -> {
			if (ex != null) {
				connection.closeAsync();
				Throwable cause = RedisFailures.unwrap(ex);
				throw new RedisConnectionException("Cannot select database " + database + ": " + cause.getMessage(), cause);
			}
			return connection;
		});
	}

	/** The connector of {@link #following}: commands, and pub/sub on a standalone client. */
	private static final class Following<K, V> implements Connector<K, V>, PubSubConnector {

		private final Supplier<? extends AbstractRedisClient> clients;

		private final RedisCodec<K, V> codec;

		private final int clientDatabase;

		Following(Supplier<? extends AbstractRedisClient> clients, RedisCodec<K, V> codec, int clientDatabase) {
			this.clients = clients;
			this.codec = codec;
			this.clientDatabase = clientDatabase;
		}

		@Override
		public CompletableFuture<StatefulConnection<K, V>> connect(int database) {
			return CompletableFuture.supplyAsync(() -> Connectors.connect(this.clients.get(), this.codec), Connectors::connectThread)
				.thenCompose((connection) -> (connection instanceof StatefulRedisConnection<K, V> standalone)
						? select(standalone, database, this.clientDatabase) : CompletableFuture.completedFuture(connection));
		}

		/** Pub/sub is the same in every database: the connection stays in the client's. */
		@Override
		public <C, D> CompletableFuture<StatefulRedisPubSubConnection<C, D>> connectPubSub(RedisCodec<C, D> codec) {
			return CompletableFuture.supplyAsync(() -> {
				AbstractRedisClient client = this.clients.get();
				if (client == null || isCluster(client)) {
					throw new IllegalStateException("pub/sub connections here need a RedisClient, the supplier gave "
							+ ((client != null) ? client.getClass().getSimpleName() : "null"));
				}
				WriteCoalescing.applyTo(client);
				return ((RedisClient) client).connectPubSub(codec);
			}, Connectors::connectThread);
		}

	}

	/** The connector of {@link #of(RedisClient, RedisURI, RedisCodec)}: commands and pub/sub. */
	private static final class Standalone<K, V> implements Connector<K, V>, PubSubConnector {

		private final RedisClient client;

		private final RedisURI uri;

		private final RedisCodec<K, V> codec;

		Standalone(RedisClient client, RedisURI uri, RedisCodec<K, V> codec) {
			this.client = client;
			this.uri = uri;
			this.codec = codec;
		}

		@Override
		public CompletableFuture<StatefulConnection<K, V>> connect(int database) {
			WriteCoalescing.applyTo(this.client);
			return this.client.connectAsync(this.codec, RedisURI.builder(this.uri).withDatabase(database).build())
				.toCompletableFuture()
				.thenApply((connection) -> connection);
		}

		@Override
		public <C, D> CompletableFuture<StatefulRedisPubSubConnection<C, D>> connectPubSub(RedisCodec<C, D> codec) {
			WriteCoalescing.applyTo(this.client);
			return this.client.connectPubSubAsync(codec, this.uri).toCompletableFuture();
		}

	}

	private static void connectThread(Runnable connect) {
		Thread thread = new Thread(connect, "slipcase-connect");
		thread.setDaemon(true);
		thread.start();
	}

}
