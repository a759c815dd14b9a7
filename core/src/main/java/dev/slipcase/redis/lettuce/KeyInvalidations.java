package dev.slipcase.redis.lettuce;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Redis' own word that keys changed, for a tier that keeps copies of values: a connection of its
 * own to one server, with {@code CLIENT TRACKING ON BCAST} on key prefixes, whose RESP3
 * {@code invalidate} push messages name every key under those prefixes that any client changed
 * (written, deleted, expired or evicted), and carry no key at all when the database was flushed.
 * <p>
 * While the connection is down, changes go unreported: the {@link Listener} hears that tracking
 * was lost at once (a copy may be stale from then on), and that it is back only once Lettuce has
 * reconnected and Redis has acknowledged tracking again on the new connection. Redis forgets a
 * client's tracking with its connection, so it is enabled again on every reconnect.
 * <p>
 * Listeners are called on the connection's event loop: they must not block. Thread-safe.
 * {@link #close()} closes the connection.
 */
public final class KeyInvalidations implements AutoCloseable {

	/** What a {@link KeyInvalidations} reports; called on the connection's event loop, must not block. */
	public interface Listener {

		/** These keys changed; a copy of any of them is stale. */
		void invalidated(List<String> keys);

		/** Every key may have changed: the database was flushed ({@code FLUSHDB}, {@code FLUSHALL}). */
		void flushed();

		/**
		 * Tracking is down (the connection dropped, or tracking could not be enabled again): changes
		 * go unreported until {@link #trackingRestored()}; no copy can be trusted meanwhile.
		 */
		void trackingLost();

		/** Tracking is back: changes from here on are reported; what changed meanwhile was not. */
		void trackingRestored();

	}

	private final StatefulRedisConnection<String, String> connection;

	private final TrackingArgs tracking;

	private final Listener listener;

	private final ConnectionEvents events = new ConnectionEvents();

	private volatile boolean active;

	private volatile boolean closed;

	private KeyInvalidations(StatefulRedisConnection<String, String> connection, TrackingArgs tracking,
			Listener listener) {
		this.connection = connection;
		this.tracking = tracking;
		this.listener = listener;
	}

	/**
	 * Opens a tracking connection to {@code uri} for the keys under {@code prefixes}; completes once
	 * Redis tracks them.
	 * @param client a client whose connections speak RESP3 (Lettuce's default with Redis 6+)
	 * @param prefixes the key prefixes to track, at least one; an empty string tracks every key
	 * @param listener told of every change, never {@code null}
	 * @return the open tracking, or a future that fails when Redis refuses (RESP2 only, say)
	 */
	public static CompletableFuture<KeyInvalidations> open(RedisClient client, RedisURI uri, List<String> prefixes,
			Listener listener) {
		Assert.notEmpty(prefixes, "prefixes must not be empty");
		Assert.notNull(listener, "listener must not be null");
		TrackingArgs tracking = TrackingArgs.Builder.enabled().bcast().prefixes(prefixes.toArray(String[]::new));
		return client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture().thenCompose((connection) -> {
			KeyInvalidations invalidations = new KeyInvalidations(connection, tracking, listener);
			return invalidations.start().handle((ok, failure) -> {
				if (failure != null) {
					invalidations.close();
					throw new IllegalStateException("Redis refused to track keys for invalidations: "
							+ RedisFailures.unwrap(failure).getMessage(), RedisFailures.unwrap(failure));
				}
				return invalidations;
			});
		});
	}

	private CompletableFuture<Void> start() {
		if (this.connection instanceof StatefulRedisConnectionImpl<?, ?> impl
				&& impl.getConnectionState().getNegotiatedProtocolVersion() == ProtocolVersion.RESP2) {
			return CompletableFuture.failedFuture(new IllegalStateException(
					"the connection speaks RESP2, and invalidations arrive as RESP3 push messages"));
		}
		this.connection.addListener((PushListener) this::pushed);
		this.connection.addListener(this.events);
		return enableTracking().thenRun(() -> this.active = true);
	}

	private CompletableFuture<Void> enableTracking() {
		return this.connection.async().clientTracking(this.tracking).toCompletableFuture().thenAccept((reply) -> {
			if (!"OK".equals(reply)) {
				throw new IllegalStateException("CLIENT TRACKING answered " + reply);
			}
		});
	}

	/** Whether changes are reported right now. */
	public boolean isTracking() {
		return this.active && !this.closed;
	}

	/** The id Redis gives the tracking connection ({@code CLIENT ID}), for tests and diagnostics. */
	public long clientId(Duration timeout) {
		return Await.result(this.connection.async().clientId().toCompletableFuture(), timeout, "read the client id",
				null);
	}

	private void pushed(PushMessage message) {
		if (!"invalidate".equals(message.getType())) {
			return;
		}
		List<Object> content = message.getContent(KeyInvalidations::text);
		Object keys = (content.size() > 1) ? content.get(1) : null;
		if (keys == null) {
			this.listener.flushed();
			return;
		}
		List<String> changed = new ArrayList<>();
		if (keys instanceof List<?> list) {
			for (Object key : list) {
				if (key != null) {
					changed.add(key.toString());
				}
			}
		}
		if (!changed.isEmpty()) {
			this.listener.invalidated(changed);
		}
	}

	private static @Nullable Object text(@Nullable ByteBuffer bytes) {
		return (bytes != null) ? StandardCharsets.UTF_8.decode(bytes).toString() : null;
	}

	/** Stops tracking and closes the connection. */
	@Override
	public void close() {
		this.closed = true;
		this.connection.closeAsync();
	}

	/** The tracking connection's drops and reconnects. */
	private final class ConnectionEvents implements RedisConnectionStateListener {

		@Override
		public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
			if (connection == KeyInvalidations.this.connection && !KeyInvalidations.this.closed) {
				KeyInvalidations.this.active = false;
				KeyInvalidations.this.listener.trackingLost();
			}
		}

		@Override
		public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
			if (connection != KeyInvalidations.this.connection || KeyInvalidations.this.closed
					|| KeyInvalidations.this.active) {
				return;
			}
			// a reconnect: Redis forgot the old connection's tracking
			enableTracking().whenComplete((ok, failure) -> {
				if (failure == null && !KeyInvalidations.this.closed) {
					KeyInvalidations.this.active = true;
					KeyInvalidations.this.listener.trackingRestored();
				}
			});
		}

	}

}
