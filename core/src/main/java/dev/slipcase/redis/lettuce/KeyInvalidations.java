package dev.slipcase.redis.lettuce;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Redis' own word that keys changed, for a tier that keeps copies of values: a connection of its
 * own to one server, with {@code CLIENT TRACKING ON BCAST} on key prefixes, whose RESP3
 * {@code invalidate} push messages name every key under those prefixes that any client changed
 * (written, deleted, expired or evicted), and carry no key at all when the database was flushed.
 * A client that speaks RESP2 has no push messages: tracking is then enabled with
 * {@code REDIRECT} to a second connection, a pub/sub one subscribed to
 * {@code __redis__:invalidate}, where the same reports arrive as messages. No command is sent on
 * that one once it subscribed (Lettuce cannot read a reply that arrives while it is in the middle
 * of a message): the heartbeat is a {@code PUBLISH} from the tracking connection to a channel of
 * the pair's own that the pub/sub connection also subscribed to, answered when it arrives there.
 * So it also proves that both reached the same server and that the tracking connection is alive
 * (Redis would close an idle one after its {@code timeout}), and a {@code PUBLISH} nobody
 * received closes the pair.
 * <p>
 * Tracking is registered with {@code NOLOOP}: a key written on the tracking connection itself
 * ({@link #write}) is reported to every other client tracking it, but not here; any other
 * connection's writes, this application's own included, are, except one followed by a write of
 * the same key here within the same turn of the server's event loop (Redis remembers only the last
 * writer of a key per turn), which that write replaced.
 * <p>
 * Tracking is <em>trusted</em> while the connection is up, Redis has acknowledged tracking on it,
 * and no heartbeat ({@code PING}, one {@code heartbeat} after the last answer) has been waiting
 * for its answer longer than {@code heartbeat}:
 * a {@code PONG} arrives after every invalidation Redis had sent before it on the same connection
 * (those of writes in the server's current event loop iteration follow within that iteration),
 * so while heartbeats come back in time, no change goes unreported for longer than about twice
 * the heartbeat. The {@link Listener} hears at once when tracking stops being trusted (the connection
 * dropped, or a heartbeat is late: the server is paused, or the client's event loop is starved),
 * and when it is trusted again. Redis forgets a client's tracking with its connection, so it is
 * enabled again on every reconnect. On RESP2, a connection that drops closes both for good
 * ({@link #isClosed()}): the pub/sub connection gets a new id on reconnect, which tracking would
 * have to be redirected to, and Lettuce subscribes it again before a {@code CLIENT ID} could ask;
 * the owner opens another.
 * <p>
 * Listeners are called on the connection's event loop (invalidations, flushes) and, for changes
 * of trust, also on the client's scheduler: they must not block, and may be called concurrently. Thread-safe. {@link #close()} closes the connection.
 */
public final class KeyInvalidations implements AutoCloseable {

	/** How often per heartbeat interval it checks whether a heartbeat is due or late. */
	private static final int TICKS_PER_HEARTBEAT = 4;

	/** After how many heartbeats without an answer one is given up and another sent. */
	private static final int ABANDON_AFTER_HEARTBEATS = 3;

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

	private final long heartbeatNanos;

	private final ConnectionEvents events = new ConnectionEvents();

	/** Redis acknowledged tracking on the current connection, and it has not dropped since. */
	private boolean enabled;

	/** A heartbeat is outstanding for longer than the heartbeat interval. */
	private boolean lagging;

	private boolean closed;

	/** What the listener was last told. */
	private boolean trusted;

	/** When the outstanding heartbeat was sent ({@code System.nanoTime()}), or {@code 0}: none is. */
	private long heartbeatSentAt;

	/**
	 * When a write on the tracking connection was last given up with its outcome unknown
	 * ({@code System.nanoTime()}; see {@link #writeOutcomeUnknown()}), or {@code 0}: never.
	 */
	private long writeGivenUpAt;

	/** When the last heartbeat was answered or failed ({@code System.nanoTime()}). */
	private long lastAnswerAt = System.nanoTime();

	private @Nullable ScheduledFuture<?> heartbeats;

	/** The outstanding heartbeat's answer, or {@code null}. */
	private @Nullable CompletableFuture<?> heartbeat;

	/** On RESP2: the pair's heartbeat channel, and the heartbeats published to it not yet arrived, by number. */
	private final @Nullable String heartbeatChannel;

	private final Map<Long, CompletableFuture<Void>> unarrived = new ConcurrentHashMap<>();

	private final AtomicLong heartbeatNumbers = new AtomicLong();

	/** The {@link #write}s under way. */
	private final AtomicInteger writing = new AtomicInteger();

	/** {@link #closeWhenWritten()} was called: the last write under way closes the connections. */
	private volatile boolean retiring;

	/** The id of the pub/sub connection tracking redirects to, or {@code 0}: none (RESP3). */
	private long redirectTo;

	private KeyInvalidations(StatefulRedisConnection<String, String> connection,
			StatefulRedisConnection<String, String> listening, List<String> prefixes, Listener listener,
			Duration heartbeat, @Nullable String heartbeatChannel) {
		this.connection = connection;
		this.listening = listening;
		this.heartbeatChannel = heartbeatChannel;
		this.prefixes = List.copyOf(prefixes);
		this.listener = listener;
		this.heartbeatNanos = heartbeat.toNanos();
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
			// CLIENT ID before SUBSCRIBE, the last command sent on it (see the class' javadoc)
			enabled = pubsub.async().clientId().toCompletableFuture().thenCompose((id) -> {
				synchronized (this) {
					this.redirectTo = id;
				}
				return pubsub.async().subscribe(InvalidationMessages.CHANNEL, this.heartbeatChannel).toCompletableFuture();
			})
				.thenCompose((subscribed) -> enableTracking())
				// trusted once a heartbeat shows both connections reach the same server
				.thenCompose((tracking) -> sendHeartbeat()
					.orTimeout(ABANDON_AFTER_HEARTBEATS * this.heartbeatNanos, TimeUnit.NANOSECONDS)
					.thenApply((arrived) -> (Void) null));
		}
		else {
			this.connection.addListener((PushListener) this::pushed);
			enabled = enableTracking();
		}
		return enabled.thenRun(() -> {
			synchronized (this) {
				this.enabled = true;
				update();
				if (!this.closed) {
					long tick = this.heartbeatNanos / TICKS_PER_HEARTBEAT;
					this.heartbeats = this.connection.getResources()
						.eventExecutorGroup()
						.scheduleAtFixedRate(this::heartbeat, tick, tick, TimeUnit.NANOSECONDS);
				}
			}
		});
	}

	private CompletableFuture<Void> enableTracking() {
		// NOLOOP: what this connection writes itself (write) is not reported back
		TrackingArgs tracking = TrackingArgs.Builder.enabled()
			.bcast()
			.noloop()
			.prefixes(this.prefixes.toArray(String[]::new));
		synchronized (this) {
			if (this.redirectTo != 0) {
				tracking.redirect(this.redirectTo);
			}
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
	 * most once, never again after a reconnect ({@link SentOnceCommand}).
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
		// counted before the checks, so that a retirement either sees it or is seen by it
		this.writing.incrementAndGet();
		if (this.retiring || !this.connection.isOpen()) {
			written();
			return CompletableFuture.completedFuture(false); // reconnecting, closing or closed: never sent
		}
		SentOnceCommand<byte[], byte[], String> command = BinaryCommands.set(key, value, expiryMillis(ttl));
		// on the command itself: the outcome below does not run once its caller cancelled it
		command.whenComplete((reply, failure) -> written());
		dispatch(this.connection, command);
		CompletableFuture<Boolean> outcome = command.handle((reply, failure) -> {
			if (failure == null) {
				if (!"OK".equals(reply)) {
					throw new IllegalStateException("SET answered " + reply);
				}
				return true;
			}
			Throwable cause = RedisFailures.unwrap(failure);
			if (cause instanceof RedisCommandExecutionException || command.abandonIfUnsent()) {
				return false; // refused by Redis, or never written (and now never will be): not applied
			}
			throw new CompletionException(cause);
		});
		outcome.whenComplete((applied, failure) -> {
			if (failure instanceof CancellationException) {
				command.cancel(false); // given up on: not written, if it was not yet
			}
		});
		return outcome;
	}

	/** {@code PX} for {@code ttl}: at least 1, at most {@code Long.MAX_VALUE}; {@code 0}: no expiry. */
	private static long expiryMillis(@Nullable Duration ttl) {
		if (ttl == null || ttl.isNegative() || ttl.isZero()) {
			return 0;
		}
		try {
			return Math.max(1, ttl.toMillis());
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE; // Redis refuses it, as it would the writer's
		}
	}

	/** A {@link #write} completed: closes the connections when that was the last one a retirement waited for. */
	private void written() {
		if (this.writing.decrementAndGet() == 0 && this.retiring) {
			close();
		}
	}

	/**
	 * Closes the connections once the writes under way have completed, at once when none is:
	 * for a tracking that is no longer used (its server left, or another replaced it), whose last
	 * writes should complete rather than be cancelled. No new write should be started on it.
	 */
	public void closeWhenWritten() {
		this.retiring = true;
		if (this.writing.get() == 0) {
			close();
		}
	}

	/**
	 * A {@link #write} whose caller stopped waiting before Redis answered (it timed out, or the
	 * thread was interrupted): it may still be applied, later, and Redis will not report it here.
	 * Tracking is not trusted from now until a heartbeat sent from now on is answered: it goes on
	 * the same connection, so Redis answers it only after it has run that write.
	 */
	public void writeOutcomeUnknown() {
		synchronized (this) {
			long now = System.nanoTime();
			this.writeGivenUpAt = (now != 0) ? now : 1;
			this.lagging = true;
			update();
			this.lastAnswerAt = now - this.heartbeatNanos; // the next tick sends a heartbeat, unless one is out
		}
	}

	/**
	 * Sends a binary command on the string connection (a command encodes its own arguments) in the
	 * order of sends, as {@link ConnectionHolder} does: one the connection refuses completes with
	 * that failure.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static void dispatch(StatefulRedisConnection<String, String> connection,
			SentOnceCommand<byte[], byte[], ?> command) {
		OrderedDispatch.dispatch((StatefulRedisConnection) connection, command);
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
	public synchronized boolean isTracking() {
		return this.trusted;
	}

	/**
	 * The id Redis gives the connection tracking is enabled on ({@code CLIENT ID}), for tests and
	 * diagnostics.
	 */
	public long clientId(Duration timeout) {
		return Await.result(this.connection.async().clientId().toCompletableFuture(), timeout, "read the client id",
				null);
	}

	/**
	 * Runs a few times per heartbeat: sends one when it is due, notices one that is late, and gives
	 * up on one unanswered for {@value #ABANDON_AFTER_HEARTBEATS} heartbeats so that another is sent
	 * (tracking stays untrusted until one is answered). Never throws: an exception would end the
	 * schedule, and with it every later heartbeat.
	 */
	private void heartbeat() {
		try {
			beat();
		}
		catch (RuntimeException ex) {
			answeredNow(ex);
		}
	}

	private void beat() {
		long now = System.nanoTime();
		CompletableFuture<?> abandoned = null;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			if (this.heartbeatSentAt != 0) {
				if (now - this.heartbeatSentAt > this.heartbeatNanos) {
					this.lagging = true;
					update();
				}
				if (now - this.heartbeatSentAt <= ABANDON_AFTER_HEARTBEATS * this.heartbeatNanos) {
					return;
				}
				abandoned = this.heartbeat;
				this.heartbeatSentAt = 0;
			}
			else if (now - this.lastAnswerAt < this.heartbeatNanos) {
				return;
			}
			this.heartbeatSentAt = now;
		}
		if (abandoned != null) {
			abandoned.cancel(false);
		}
		long sentAt = now;
		CompletableFuture<?> answer = sendHeartbeat();
		synchronized (this) {
			if (this.heartbeatSentAt == sentAt) {
				this.heartbeat = answer;
			}
		}
		answer.whenComplete((pong, failure) -> answered(sentAt, failure));
	}

	/**
	 * Sends a heartbeat: a {@code PING} (RESP3), or a {@code PUBLISH} to the pair's heartbeat
	 * channel (RESP2), answered when it arrives on the pub/sub connection; one nobody received
	 * closes the pair (the pub/sub connection is on another server, or lost its subscription).
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
		synchronized (this) {
			this.enabled = false;
			update();
		}
		close();
	}

	/** A heartbeat that could not even be sent: as one that failed. */
	private synchronized void answeredNow(RuntimeException failure) {
		if (this.heartbeatSentAt != 0) {
			answered(this.heartbeatSentAt, failure);
		}
	}

	private synchronized void answered(long sentAt, @Nullable Throwable failure) {
		if (this.heartbeatSentAt != sentAt) {
			return;
		}
		this.heartbeatSentAt = 0;
		this.lastAnswerAt = System.nanoTime();
		// a PONG arrives after every invalidation sent before it; a failed PING (timed out, the
		// connection dropped) says nothing of them: not trusted until a heartbeat is answered; nor
		// does one sent before a write was given up say that the write has run
		boolean sentAfterWriteGivenUp = this.writeGivenUpAt == 0 || sentAt - this.writeGivenUpAt > 0;
		this.lagging = failure != null || !sentAfterWriteGivenUp;
		if (failure == null && !sentAfterWriteGivenUp) {
			this.lastAnswerAt -= this.heartbeatNanos; // the one that counts goes at the next tick
		}
		update();
	}

	/** Tells the listener when whether tracking is trusted changed. Called holding the lock. */
	private void update() {
		boolean now = this.enabled && !this.lagging && !this.closed;
		if (now == this.trusted) {
			return;
		}
		this.trusted = now;
		if (now) {
			this.listener.trackingTrusted();
		}
		else {
			this.listener.trackingLost();
		}
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

	/** Stops tracking and closes the connection; the listener hears nothing more. */
	@Override
	public void close() {
		ScheduledFuture<?> scheduled;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.trusted = false;
			scheduled = this.heartbeats;
		}
		if (scheduled != null) {
			scheduled.cancel(false);
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
				broken(); // either drop ends the redirect for good (see the class' javadoc)
				return;
			}
			synchronized (KeyInvalidations.this) {
				KeyInvalidations.this.enabled = false;
				update();
			}
		}

		@Override
		public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
			if (!isOurs(connection) || isRedirected()) {
				return;
			}
			synchronized (KeyInvalidations.this) {
				if (KeyInvalidations.this.closed || KeyInvalidations.this.enabled || KeyInvalidations.this.heartbeats == null) {
					return; // the first connect, which start() enables
				}
			}
			// a reconnect: Redis forgot the old connection's tracking
			reenable();
		}

		/** Enables tracking on the reconnected connection, trying again every second until Redis accepts. */
		private void reenable() {
			enableTracking().whenComplete((ok, failure) -> {
				if (failure == null) {
					synchronized (KeyInvalidations.this) {
						KeyInvalidations.this.enabled = true;
						update();
					}
					return;
				}
				synchronized (KeyInvalidations.this) {
					if (KeyInvalidations.this.closed || !KeyInvalidations.this.connection.isOpen()) {
						return; // closed, or dropped again: the next reconnect tries
					}
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
