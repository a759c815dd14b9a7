package dev.slipcase.redis.near;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.lettuce.PubSubConnector;
import dev.slipcase.redis.lettuce.RedisFailures;
import dev.slipcase.redis.lettuce.SlipcaseCommand;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Redis' own word that keys changed, for a tier that keeps copies of values: a connection of its
 * own to one server with {@code CLIENT TRACKING ON BCAST NOLOOP} on key prefixes, reporting every
 * key under them that any client wrote, deleted, expired or evicted, and every flush. Reports
 * arrive as RESP3 pushes ({@link InvalidationPushes}) or, on RESP2, on a pub/sub connection that
 * tracking redirects to ({@link InvalidationMessages}); {@link TrackingTrust} says whether they can
 * be trusted right now; {@link TrackingWrites} makes the writes Redis does not report back here
 * ({@code NOLOOP}). Redis remembers one writer of a key per turn of its event loop, so another
 * client's write followed by one here in the same turn goes unreported here too.
 * Tracking is enabled again after every reconnect; on RESP2 a drop closes both connections for good
 * ({@link #isClosed()}) and the owner opens another.
 * <p>
 * Owns its connections and closes them in {@link #close()}; holds no buffer. The listener is called
 * on the connection's event loop and the client's scheduler. Thread-safe.
 */
public final class KeyInvalidations implements AutoCloseable {

	/** The start of the name of each RESP2 pair's own heartbeat channel. */
	private static final String HEARTBEAT_CHANNEL_PREFIX = "__slipcase__:near-heartbeat:";

	/** What a {@link KeyInvalidations} reports; must not block, and may be called concurrently. */
	public interface Listener {

		/** These keys changed; a copy of any of them is stale. */
		void invalidated(List<String> keys);

		/** Every key may have changed: the database was flushed ({@code FLUSHDB}, {@code FLUSHALL}). */
		void flushed();

		/**
		 * Tracking is no longer trusted (the connection dropped, tracking could not be enabled again,
		 * or a heartbeat is late): changes may go unreported until {@link #trackingTrusted()}; no
		 * copy can be trusted meanwhile.
		 */
		void trackingLost();

		/**
		 * Tracking is trusted: changes from here on are reported. Called once tracking starts, and
		 * after each {@link #trackingLost()} once it is back (what changed meanwhile may not have
		 * been reported).
		 */
		void trackingTrusted();

	}

	/** The connection tracking is enabled on. */
	private final StatefulRedisConnection<String, String> connection;

	/**
	 * The connection invalidations arrive on and heartbeats go to: {@link #connection} itself
	 * (RESP3), or a pub/sub connection it redirects to (RESP2).
	 */
	private final StatefulRedisConnection<String, String> listening;

	private final List<String> prefixes;

	private final Listener listener;

	private final TrackingTrust trust;

	private final TrackingWrites writes;

	private final ConnectionEvents events = new ConnectionEvents();

	/** On RESP2: the pair's heartbeat channel, and the heartbeats published to it not yet arrived, by number. */
	private final @Nullable String heartbeatChannel;

	private final Map<Long, CompletableFuture<Void>> unarrived = new ConcurrentHashMap<>();

	private final AtomicLong heartbeatNumbers = new AtomicLong();

	/** The id of the pub/sub connection tracking redirects to, or {@code 0}: none (RESP3). */
	private volatile long redirectTo;

	private KeyInvalidations(StatefulRedisConnection<String, String> connection,
			StatefulRedisConnection<String, String> listening, List<String> prefixes, Listener listener,
			Duration heartbeat, @Nullable String heartbeatChannel) {
		this.connection = connection;
		this.listening = listening;
		this.heartbeatChannel = heartbeatChannel;
		this.prefixes = List.copyOf(prefixes);
		this.listener = listener;
		this.trust = new TrackingTrust(listener, heartbeat.toNanos(), this::sendHeartbeat);
		this.writes = new TrackingWrites(connection, this::close);
	}

	/**
	 * Opens a tracking connection to {@code uri} for the keys under {@code prefixes}, with a
	 * heartbeat every second; completes once Redis tracks them.
	 * @param client the client, speaking RESP3 (Lettuce's default with Redis 6+) or RESP2
	 * @param prefixes the key prefixes to track, at least one; an empty string tracks every key
	 * @param listener told of every change, never {@code null}
	 * @return the open tracking, or a future that fails when Redis refuses
	 */
	public static CompletableFuture<KeyInvalidations> open(RedisClient client, RedisURI uri, List<String> prefixes,
			Listener listener) {
		return open(Connectors.of(client, uri, StringCodec.UTF8), prefixes, listener, Duration.ofSeconds(1));
	}

	/**
	 * Opens a tracking connection with {@code connector} for the keys under {@code prefixes};
	 * completes once Redis tracks them.
	 * @param connector opens a connection to one server (not a cluster), such as
	 * {@link Connectors#following} a Spring connection factory's client; on RESP2 it must be a
	 * {@link PubSubConnector} too, as the connectors of {@link Connectors} are
	 * @param prefixes the key prefixes to track, at least one, none a prefix of another; an empty
	 * string tracks every key
	 * @param listener told of every change, never {@code null}
	 * @param heartbeat how often to check that the connection answers, and how late an answer
	 * may be before tracking is no longer trusted
	 * @return the open tracking, or a future that fails when a connection fails or Redis refuses
	 */
	public static CompletableFuture<KeyInvalidations> open(Connector<String, String> connector, List<String> prefixes,
			Listener listener, Duration heartbeat) {
		Assert.notEmpty(prefixes, "prefixes must not be empty");
		Assert.notNull(listener, "listener must not be null");
		Assert.isTrue(heartbeat.toMillis() > 0, "heartbeat must be positive");
		return connector.connect(0).thenCompose((opened) -> {
			if (!(opened instanceof StatefulRedisConnection<String, String> connection)) {
				opened.closeAsync();
				throw new IllegalArgumentException("tracking needs a connection to one server, not "
						+ opened.getClass().getSimpleName());
			}
			if (!speaksResp2(connection)) {
				return started(new KeyInvalidations(connection, connection, prefixes, listener, heartbeat, null));
			}
			if (!(connector instanceof PubSubConnector pubSub)) {
				connection.closeAsync();
				throw new IllegalArgumentException("the connection speaks RESP2, where invalidations arrive on a "
						+ "pub/sub connection, and " + connector.getClass().getName() + " opens none");
			}
			String heartbeatChannel = HEARTBEAT_CHANNEL_PREFIX + UUID.randomUUID();
			InvalidationMessages messages = new InvalidationMessages(listener, heartbeatChannel);
			return pubSub.connectPubSub(messages).handle((pubsub, failure) -> {
				if (failure != null) {
					connection.closeAsync();
					throw new IllegalStateException("cannot open the pub/sub connection invalidations arrive on (RESP2): "
							+ RedisFailures.unwrap(failure).getMessage(), RedisFailures.unwrap(failure));
				}
				if (!speaksResp2(pubsub)) {
					connection.closeAsync();
					pubsub.closeAsync();
					throw new IllegalStateException("the pub/sub connection does not speak RESP2 as the tracking one does");
				}
				pubsub.addListener(messages);
				KeyInvalidations invalidations = new KeyInvalidations(connection, pubsub, prefixes, listener, heartbeat,
						heartbeatChannel);
				messages.heartbeats(invalidations::heartbeatArrived);
				return invalidations;
			}).thenCompose(KeyInvalidations::started);
		});
	}

	private static boolean speaksResp2(StatefulRedisConnection<?, ?> connection) {
		return connection instanceof StatefulRedisConnectionImpl<?, ?> impl
				&& impl.getConnectionState().getNegotiatedProtocolVersion() == ProtocolVersion.RESP2;
	}

	private static CompletableFuture<KeyInvalidations> started(KeyInvalidations invalidations) {
		return invalidations.start().handle((ok, failure) -> {
			if (failure != null) {
				invalidations.close();
				throw new IllegalStateException("Redis refused to track keys for invalidations: "
						+ RedisFailures.unwrap(failure).getMessage(), RedisFailures.unwrap(failure));
			}
			return invalidations;
		});
	}

	private boolean isRedirected() {
		return this.listening != this.connection;
	}

	private CompletableFuture<Void> start() {
		this.connection.addListener(this.events);
		CompletableFuture<Void> enabled;
		if (isRedirected()) {
			StatefulRedisPubSubConnection<String, String> pubsub = (StatefulRedisPubSubConnection<String, String>) this.listening;
			pubsub.addListener(this.events);
			// CLIENT ID before SUBSCRIBE, the last command sent on it (see sendHeartbeat)
			enabled = pubsub.async().clientId().toCompletableFuture().thenCompose((id) -> {
				this.redirectTo = id;
				return pubsub.async().subscribe(InvalidationMessages.CHANNEL, this.heartbeatChannel).toCompletableFuture();
			})
				.thenCompose((subscribed) -> enableTracking())
				// trusted once a heartbeat shows both connections reach the same server
				.thenCompose((tracking) -> sendHeartbeat().orTimeout(this.trust.abandonAfterNanos(), TimeUnit.NANOSECONDS)
					.thenApply((arrived) -> (Void) null));
		}
		else {
			this.connection.addListener(new InvalidationPushes(this.listener));
			enabled = enableTracking();
		}
		return enabled.thenRun(() -> this.trust.started(this.connection.getResources().eventExecutorGroup()));
	}

	private CompletableFuture<Void> enableTracking() {
		// NOLOOP: what this connection writes itself (write) is not reported back
		TrackingArgs tracking = TrackingArgs.Builder.enabled()
			.bcast()
			.noloop()
			.prefixes(this.prefixes.toArray(String[]::new));
		if (this.redirectTo != 0) {
			tracking.redirect(this.redirectTo);
		}
		return this.connection.async().clientTracking(tracking).toCompletableFuture().thenAccept((reply) -> {
			if (!"OK".equals(reply)) {
				throw new IllegalStateException("CLIENT TRACKING answered " + reply);
			}
		});
	}

	/**
	 * Writes {@code value} to {@code key} ({@code SET}) on the tracking connection, whose own writes
	 * Redis reports to every other client that tracks the key, but not back here ({@code NOLOOP}):
	 * so a tier that stores what it wrote is not made to forget it again by its own write. Sent at
	 * most once, never again after a reconnect ({@link SlipcaseCommand#write}).
	 * @param key the key, on this connection's server
	 * @param value the value; not to be changed until the returned future completes
	 * @param ttl how long the key lives, or {@code null} (or not positive): for ever
	 * @return completes with {@code true} once Redis acknowledged the write, and with {@code false}
	 * when it was not applied: Redis refused it (its error reply; {@code MOVED} on a cluster, for
	 * one), or it never left (the connection was down, closed or closing); fails when whether it was
	 * applied is not known (the connection dropped after it was written). Cancelling it cancels the
	 * command, which is then not written if it has not been yet.
	 */
	public CompletableFuture<Boolean> write(byte[] key, byte[] value, @Nullable Duration ttl) {
		return this.writes.write(key, value, ttl);
	}

	/**
	 * Closes the connections once the writes under way have completed, at once when none is:
	 * for a tracking that is no longer used (its server left, or another replaced it), whose last
	 * writes should complete rather than be cancelled. No new write should be started on it.
	 */
	public void closeWhenWritten() {
		this.writes.closeWhenWritten();
	}

	/**
	 * A {@link #write} whose caller stopped waiting before Redis answered (it timed out, or the
	 * thread was interrupted): it may still be applied, later, and Redis will not report it here.
	 * Tracking is not trusted from now until a heartbeat sent from now on is answered: it goes on
	 * the same connection, so Redis answers it only after it has run that write.
	 */
	public void writeOutcomeUnknown() {
		this.trust.writeOutcomeUnknown();
	}

	/** The longest a {@link #write} should be waited for: the connection's command timeout. */
	public Duration timeout() {
		return this.connection.getTimeout();
	}

	/**
	 * Whether its connections are closed for good (closed here, with their client when a Spring
	 * connection factory stopped, or on RESP2 when one dropped), so that no reconnect will bring
	 * tracking back.
	 */
	public boolean isClosed() {
		return isClosed(this.connection) || isClosed(this.listening);
	}

	private static boolean isClosed(StatefulRedisConnection<?, ?> connection) {
		return connection instanceof RedisChannelHandler<?, ?> handler && handler.isClosed();
	}

	/** Whether changes are reported right now: tracking is trusted. */
	public boolean isTracking() {
		return this.trust.isTrusted();
	}

	/**
	 * The id Redis gives the connection tracking is enabled on ({@code CLIENT ID}), for tests and
	 * diagnostics.
	 */
	public long clientId(Duration timeout) {
		return CommandChannel.await(this.connection.async().clientId().toCompletableFuture(), timeout, "read the client id",
				null);
	}

	/**
	 * Sends a heartbeat: a {@code PING} (RESP3), or a {@code PUBLISH} to the pair's heartbeat
	 * channel (RESP2), answered when it arrives on the pub/sub connection; one nobody received
	 * closes the pair (the pub/sub connection is on another server, or lost its subscription). No
	 * command is sent on the pub/sub connection once it subscribed: Lettuce cannot read a reply
	 * that arrives in the middle of a message.
	 */
	private CompletableFuture<?> sendHeartbeat() {
		if (this.heartbeatChannel == null) {
			return this.connection.async().ping().toCompletableFuture();
		}
		long number = this.heartbeatNumbers.incrementAndGet();
		CompletableFuture<Void> arrived = new CompletableFuture<>();
		this.unarrived.put(number, arrived);
		arrived.whenComplete((ok, failure) -> this.unarrived.remove(number));
		this.connection.async()
			.publish(this.heartbeatChannel, Long.toString(number))
			.toCompletableFuture()
			.whenComplete((receivers, failure) -> {
				if (failure != null) {
					arrived.completeExceptionally(failure);
				}
				else if (receivers == null || receivers == 0) {
					arrived.completeExceptionally(new IllegalStateException("no pub/sub connection received the heartbeat"));
					broken();
				}
			});
		return arrived;
	}

	/** A heartbeat arrived on the pub/sub connection (RESP2). */
	private void heartbeatArrived(String message) {
		try {
			CompletableFuture<Void> arrived = this.unarrived.get(Long.parseLong(message));
			if (arrived != null) {
				arrived.complete(null);
			}
		}
		catch (NumberFormatException ex) {
			// not one of ours
		}
	}

	/** Tells the listener tracking is lost, and closes the connections for good. */
	private void broken() {
		this.trust.enabled(false);
		close();
	}

	/** Stops tracking and closes the connection; the listener hears nothing more. */
	@Override
	public void close() {
		if (!this.trust.close()) {
			return;
		}
		this.connection.closeAsync();
		if (isRedirected()) {
			this.listening.closeAsync();
		}
	}

	/** The tracking connection's drops and reconnects. */
	private final class ConnectionEvents implements RedisConnectionStateListener {

		@Override
		public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
			if (!isOurs(connection)) {
				return;
			}
			if (isRedirected()) {
				broken(); // either drop ends the redirect for good: the pub/sub connection comes back with a new id
				return;
			}
			KeyInvalidations.this.trust.enabled(false);
		}

		@Override
		public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
			// the first connect is enabled by start(); a reconnect: Redis forgot the old connection's tracking
			if (isOurs(connection) && !isRedirected() && KeyInvalidations.this.trust.needsEnabling()) {
				reenable();
			}
		}

		/** Enables tracking on the reconnected connection, trying again every second until Redis accepts. */
		private void reenable() {
			enableTracking().whenComplete((ok, failure) -> {
				if (failure == null) {
					KeyInvalidations.this.trust.enabled(true);
					return;
				}
				if (KeyInvalidations.this.trust.isClosed() || !KeyInvalidations.this.connection.isOpen()) {
					return; // closed, or dropped again: the next reconnect tries
				}
				KeyInvalidations.this.connection.getResources()
					.eventExecutorGroup()
					.schedule(this::reenable, 1, TimeUnit.SECONDS);
			});
		}

		private boolean isOurs(RedisChannelHandler<?, ?> handler) {
			return (Object) handler == (Object) KeyInvalidations.this.connection
					|| (Object) handler == (Object) KeyInvalidations.this.listening;
		}

	}

}
