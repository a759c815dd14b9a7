package dev.slipcase.redis.lettuce;

import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * Opens pub/sub connections to the one server a {@link Connector} connects to, each with a codec
 * of the caller's: what tracking needs on RESP2, where Redis sends invalidations as messages to a
 * pub/sub connection of their own (the near cache's tracking). The connectors
 * {@link Connectors#following} and {@link Connectors#of(io.lettuce.core.RedisClient, io.lettuce.core.RedisURI, RedisCodec)}
 * make are pub/sub connectors too. The caller owns each connection it opens and closes it.
 */
public interface PubSubConnector {

	/**
	 * A pub/sub connection, or a future that fails when none can be opened.
	 * @param codec the codec of the connection's channels and messages, never {@code null}
	 */
	<K, V> CompletableFuture<StatefulRedisPubSubConnection<K, V>> connectPubSub(RedisCodec<K, V> codec);

}
