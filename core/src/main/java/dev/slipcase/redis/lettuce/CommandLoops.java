package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import org.jspecify.annotations.Nullable;

/**
 * The event loop of the channel that a command sent on a Lettuce connection is written to, where
 * it can be told without waiting: a standalone connection's own channel, or on a cluster the
 * channel of the connection to the master of the slot of the command's first key, as Lettuce
 * routes it, once that connection is open. {@code null} otherwise: not connected, a keyless
 * command on a cluster, a node connection still opening, or a connection whose writer is not
 * Lettuce's plain endpoint (master/replica). Commands that a cluster connection routes to a
 * replica (a {@code ReadFrom} other than the master) are taken for the master's. Stateless.
 */
final class CommandLoops {

	private CommandLoops() {
	}

	/** The event loop {@code command} will be written on, or {@code null} when it cannot be told now. */
	static <K, V> @Nullable EventLoop of(StatefulConnection<K, V> connection, RedisCommand<K, V, ?> command) {
		if (connection instanceof StatefulRedisClusterConnection<K, V> cluster) {
			StatefulRedisConnection<K, V> node = nodeOf(cluster, command);
			return (node != null) ? of(node) : null;
		}
		return of(connection);
	}

	/** The event loop of a connection's own channel, or {@code null} when it has none now. */
	static @Nullable EventLoop of(StatefulConnection<?, ?> connection) {
		if (!(connection instanceof RedisChannelHandler<?, ?> handler)
				|| connection instanceof StatefulRedisClusterConnection<?, ?>) {
			return null;
		}
		Channel channel = ConnectionChannels.channelOf(handler);
		return (channel != null) ? channel.eventLoop() : null;
	}

	private static <K, V> @Nullable StatefulRedisConnection<K, V> nodeOf(StatefulRedisClusterConnection<K, V> cluster,
			RedisCommand<K, V, ?> command) {
		CommandArgs<K, V> args = command.getArgs();
		ByteBuffer key = (args != null) ? args.getFirstEncodedKey() : null;
		if (key == null) {
			return null;
		}
		RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
		if (master == null || master.getUri() == null) {
			return null;
		}
		CompletableFuture<StatefulRedisConnection<K, V>> node;
		try {
			node = cluster.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
		}
		catch (RuntimeException ex) {
			return null; // not a node Lettuce connects to: the dispatch finds out
		}
		return (node.isDone() && !node.isCompletedExceptionally()) ? node.join() : null;
	}

}
