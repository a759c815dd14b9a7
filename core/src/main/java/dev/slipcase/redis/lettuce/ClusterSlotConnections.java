package dev.slipcase.redis.lettuce;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.protocol.ConnectionIntent;
import org.jspecify.annotations.Nullable;

/**
 * The node connection a Lettuce cluster connection writes a slot's commands to, found by the same
 * per-slot lookup its writer makes (its connection provider's {@code getConnectionAsync(WRITE,
 * slot)}), which Lettuce does not expose: reached through method handles. A command sent there
 * keeps its order with the commands the cluster connection writes for that slot, even while
 * Lettuce refreshes its view of the cluster (the partitions change before its slot cache does).
 * When a Lettuce version lacks these, {@link #route} finds none.
 */
final class ClusterSlotConnections {

	private static final String WRITER = "io.lettuce.core.cluster.ClusterDistributionChannelWriter";

	private static final String PROVIDER = "io.lettuce.core.cluster.ClusterConnectionProvider";

	private static final String ASYNC_PROVIDER = "io.lettuce.core.cluster.AsyncClusterConnectionProvider";

	/** {@code (ClusterDistributionChannelWriter) -> ClusterConnectionProvider}, typed as Object. */
	private static final @Nullable MethodHandle PROVIDER_OF = providerOf();

	private static final @Nullable Class<?> ASYNC_PROVIDER_TYPE = type(ASYNC_PROVIDER);

	/** {@code (AsyncClusterConnectionProvider, ConnectionIntent, int) -> CompletableFuture}, provider as Object. */
	private static final @Nullable MethodHandle CONNECTION_BY_SLOT = connectionBySlot();

	/** The connection provider of one cluster connection. */
	private final Object provider;

	private ClusterSlotConnections(Object provider) {
		this.provider = provider;
	}

	/**
	 * Fills {@code connections} with the distinct connections {@code cluster} writes the slots of the
	 * first {@code count} of {@code keys} to, and {@code nodeOf} with each key's, for reads of them;
	 * {@code false} (nothing to rely on) when its reads go to replicas, when one such connection is
	 * not open with a {@link MultiReplyCommandHandler} (it would take them after commands sent after
	 * them), or when Lettuce cannot tell (a closed connection, a slot no master serves).
	 */
	static boolean route(StatefulRedisClusterConnection<byte[], byte[]> cluster, byte[][] keys, int count,
			List<StatefulRedisConnection<byte[], byte[]>> connections, int[] nodeOf) {
		try {
			ReadFrom readFrom = cluster.getReadFrom();
			ClusterSlotConnections slots = lookup(cluster);
			if ((readFrom != null && readFrom != ReadFrom.UPSTREAM && readFrom != ReadFrom.MASTER) || slots == null) {
				return false;
			}
			for (int read = 0; read < count; read++) {
				CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connection = slots
					.writeConnection(SlotHash.getSlot(keys[read]));
				if (!connection.isDone() || connection.isCompletedExceptionally()) {
					return false;
				}
				StatefulRedisConnection<byte[], byte[]> open = connection.join();
				int node = indexOf(connections, open);
				if (node < 0) {
					if (!MultiReplyCommandHandler.isInstalledOn(open)) {
						return false;
					}
					node = connections.size();
					connections.add(open);
				}
				nodeOf[read] = node;
			}
			return true;
		}
		catch (Throwable ex) {
			// Lettuce's words for a closed or unsettled cluster: reads sent alone meet them too
			return false;
		}
	}

	private static int indexOf(List<?> items, Object item) {
		for (int i = 0; i < items.size(); i++) {
			if (items.get(i) == item) {
				return i;
			}
		}
		return -1;
	}

	/** The lookup of {@code cluster}'s slot connections, {@code null} where it cannot be reached. */
	private static @Nullable ClusterSlotConnections lookup(StatefulRedisClusterConnection<?, ?> cluster) {
		if (PROVIDER_OF == null || CONNECTION_BY_SLOT == null || ASYNC_PROVIDER_TYPE == null
				|| !(cluster instanceof RedisChannelHandler<?, ?> handler)) {
			return null;
		}
		Object writer = ConnectionChannels.innermostWriter(handler);
		try {
			Object provider = (Object) PROVIDER_OF.invokeExact(writer);
			return ASYNC_PROVIDER_TYPE.isInstance(provider)
					? new ClusterSlotConnections(provider) : null;
		}
		catch (Throwable ex) {
			return null;
		}
	}

	/**
	 * The connection the cluster connection writes {@code slot}'s commands to; throws what Lettuce
	 * throws (a slot no master serves, a closed connection) or fails the future with it.
	 */
	@SuppressWarnings("unchecked")
	private <K, V> CompletableFuture<StatefulRedisConnection<K, V>> writeConnection(int slot) throws Throwable {
		return (CompletableFuture<StatefulRedisConnection<K, V>>) (CompletableFuture<?>) CONNECTION_BY_SLOT
			.invokeExact(this.provider, ConnectionIntent.WRITE, slot);
	}

	private static @Nullable MethodHandle providerOf() {
		try {
			Class<?> writer = Class.forName(WRITER);
			Class<?> provider = Class.forName(PROVIDER);
			return MethodHandles.privateLookupIn(writer, MethodHandles.lookup())
				.findVirtual(writer, "getClusterConnectionProvider", MethodType.methodType(provider))
				.asType(MethodType.methodType(Object.class, Object.class));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	private static @Nullable MethodHandle connectionBySlot() {
		if (ASYNC_PROVIDER_TYPE == null) {
			return null;
		}
		try {
			return MethodHandles.privateLookupIn(ASYNC_PROVIDER_TYPE, MethodHandles.lookup())
				.findVirtual(ASYNC_PROVIDER_TYPE, "getConnectionAsync",
						MethodType.methodType(CompletableFuture.class, ConnectionIntent.class, int.class))
				.asType(MethodType.methodType(CompletableFuture.class, Object.class, ConnectionIntent.class, int.class));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	private static @Nullable Class<?> type(String name) {
		try {
			return Class.forName(name);
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			return null;
		}
	}

}
