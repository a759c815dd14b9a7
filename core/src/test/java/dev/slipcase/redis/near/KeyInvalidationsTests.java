package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.slipcase.redis.lettuce.ConnectionHolder;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.lettuce.PubSubConnector;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KeyInvalidations} against real servers (Redis 6.2, 7.0 and 8.0, Valkey 8.0):
 * another client's writes under a tracked prefix are reported key by key and nothing else is, a
 * flush is reported as one, and a tracking connection killed with {@code CLIENT KILL} reports the
 * loss at once and, once Lettuce reconnected and tracking is on again, reports changes again; a
 * paused server ({@code CLIENT PAUSE}) makes tracking untrusted until its heartbeat answers; the
 * same on RESP2 through a redirect to a pub/sub connection, including every key of a message that
 * names many, and either connection dropping closes it for good.
 */
class KeyInvalidationsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	static Stream<Arguments> servers() {
		return Stream.of(Arguments.of("Redis 6.2", (Supplier<RedisServer>) RedisServers::startRedis62),
				Arguments.of("Redis 7.0", (Supplier<RedisServer>) RedisServers::start),
				Arguments.of("Redis 8.0", (Supplier<RedisServer>) RedisServers::startRedis80),
				Arguments.of("Valkey 8.0", (Supplier<RedisServer>) RedisServers::startValkey80));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void reportsChangesUnderItsPrefixesFlushesAndALostConnection(String name, Supplier<RedisServer> start)
			throws Exception {
		try (RedisServer redis = start.get()) {
			RedisClient client = RedisClient.create();
			Recorder recorder = new Recorder();
			RedisURI uri = RedisURI.create(redis.endpoint().uri());
			try (KeyInvalidations invalidations = KeyInvalidations
				.open(client, uri, List.of("cache:", "other:"), recorder)
				.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				assertThat(invalidations.isTracking()).isTrue();
				assertThat(recorder.restored).as("told once tracking started").hasValue(1);

				redis.command("SET", "cache:1", "a");
				redis.command("SET", "elsewhere:1", "b");
				redis.command("DEL", "other:absent");
				redis.command("SET", "other:2", "c");
				Wait.until(TIMEOUT, () -> recorder.keys.contains("cache:1") && recorder.keys.contains("other:2"));
				// DEL of a missing key changes nothing; a key outside the prefixes is not tracked
				assertThat(recorder.keys).containsOnly("cache:1", "other:2");

				redis.command("FLUSHALL");
				Wait.until(TIMEOUT, () -> recorder.flushes.get() == 1);

				long id = invalidations.clientId(TIMEOUT);
				redis.command("CLIENT", "KILL", "ID", Long.toString(id));
				Wait.until(TIMEOUT, () -> recorder.lost.get() == 1);
				Wait.until(TIMEOUT, () -> recorder.restored.get() == 2);
				assertThat(invalidations.isTracking()).isTrue();
				assertThat(invalidations.clientId(TIMEOUT)).as("a new connection").isNotEqualTo(id);

				recorder.keys.clear();
				redis.command("SET", "cache:after-reconnect", "d");
				Wait.until(TIMEOUT, () -> recorder.keys.contains("cache:after-reconnect"));

				// a paused server answers no heartbeat: tracking is not trusted until it answers again
				redis.command("CLIENT", "PAUSE", "4000", "ALL");
				Wait.until(TIMEOUT, () -> recorder.lost.get() == 2);
				assertThat(invalidations.isTracking()).isFalse();
				Wait.until(TIMEOUT, () -> recorder.restored.get() == 3);
				assertThat(invalidations.isTracking()).isTrue();
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void onResp2ReportsThroughARedirectToAPubSubConnectionAndClosesWhenEitherDrops(String name,
			Supplier<RedisServer> start) throws Exception {
		try (RedisServer redis = start.get()) {
			RedisClient client = RedisClient.create();
			client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
			RedisURI uri = RedisURI.create(redis.endpoint().uri());
			try {
				Recorder recorder = new Recorder();
				try (KeyInvalidations invalidations = KeyInvalidations
					.open(client, uri, List.of("cache:", "other:"), recorder)
					.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
					assertThat(invalidations.isTracking()).isTrue();
					assertThat((String) redis.command("CLIENT", "LIST", "TYPE", "pubsub")).as("the redirect's target, on the invalidation channel and its heartbeat channel")
						.contains("sub=2");

					redis.command("SET", "cache:1", "a");
					redis.command("SET", "elsewhere:1", "b");
					redis.command("SET", "other:2", "c");
					Wait.until(TIMEOUT, () -> recorder.keys.contains("cache:1") && recorder.keys.contains("other:2"));
					assertThat(recorder.keys).containsOnly("cache:1", "other:2");

					// one command's keys arrive as one message: every key of it is reported
					recorder.keys.clear();
					List<String> mset = new ArrayList<>();
					for (int i = 0; i < 100; i++) {
						mset.add("cache:m" + i);
						mset.add("v");
					}
					mset.add(0, "MSET");
					redis.command(mset.toArray(String[]::new));
					Wait.until(TIMEOUT, () -> recorder.keys.size() >= 100);
					assertThat(recorder.keys).hasSize(100).allMatch((key) -> key.startsWith("cache:m"));

					redis.command("FLUSHALL");
					Wait.until(TIMEOUT, () -> recorder.flushes.get() == 1);

					// a paused server answers no heartbeat on the pub/sub connection
					redis.command("CLIENT", "PAUSE", "4000", "ALL");
					Wait.until(TIMEOUT, () -> recorder.lost.get() == 1);
					Wait.until(TIMEOUT, () -> recorder.restored.get() == 2);

					// the redirect's target dropped: closed for good, for its owner to open another
					redis.command("CLIENT", "KILL", "TYPE", "pubsub");
					Wait.until(TIMEOUT, () -> recorder.lost.get() == 2);
					Wait.until(TIMEOUT, invalidations::isClosed);
					assertThat(invalidations.isTracking()).isFalse();
				}

				Recorder second = new Recorder();
				try (KeyInvalidations invalidations = KeyInvalidations.open(client, uri, List.of("cache:"), second)
					.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
					// the connection tracking is enabled on dropped: Redis forgot the tracking
					redis.command("CLIENT", "KILL", "ID", Long.toString(invalidations.clientId(TIMEOUT)));
					Wait.until(TIMEOUT, () -> second.lost.get() == 1);
					Wait.until(TIMEOUT, invalidations::isClosed);
				}
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@org.junit.jupiter.api.Test
	void onResp2TheTrackingConnectionIsKeptBusySoThatRedisTimeoutDoesNotCloseIt() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
			Recorder recorder = new Recorder();
			try (KeyInvalidations invalidations = KeyInvalidations
				.open(Connectors.of(client, RedisURI.create(redis.endpoint().uri()), StringCodec.UTF8),
						List.of("cache:"), recorder, Duration.ofMillis(500))
				.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				// Redis closes a client idle this long, pub/sub ones excepted
				redis.command("CONFIG", "SET", "timeout", "1");
				Thread.sleep(3_000);
				assertThat(recorder.lost).as("tracking lost").hasValue(0);
				assertThat(invalidations.isClosed()).isFalse();
				redis.command("SET", "cache:1", "a");
				Wait.until(TIMEOUT, () -> recorder.keys.contains("cache:1"));
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@org.junit.jupiter.api.Test
	void onResp2APairThatReachedTwoServersIsNeverTrusted() throws Exception {
		try (RedisServer tracking = RedisServers.start(); RedisServer elsewhere = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
			List<StatefulRedisConnection<String, String>> others = new ArrayList<>();
			try {
				// client ids on the tracking server beyond any the other server gives out: a
				// redirect to the other server's pub/sub connection names some client here
				RedisURI trackingUri = RedisURI.create(tracking.endpoint().uri());
				for (int i = 0; i < 20; i++) {
					others.add(client.connect(trackingUri));
				}
				CrossedConnector crossed = new CrossedConnector(Connectors.of(client, trackingUri, StringCodec.UTF8),
						(PubSubConnector) Connectors.of(client, RedisURI.create(elsewhere.endpoint().uri()),
								StringCodec.UTF8));
				Recorder recorder = new Recorder();
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> KeyInvalidations.open(crossed, List.of("cache:"), recorder, Duration.ofMillis(500))
						.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
					.withMessageContaining("no pub/sub connection received the heartbeat");
				assertThat(recorder.restored).hasValue(0);
			}
			finally {
				others.forEach(StatefulRedisConnection::close);
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	/** Opens command connections to one server and pub/sub connections to another. */
	private record CrossedConnector(ConnectionHolder.Connector<String, String> commands,
			PubSubConnector pubSub) implements ConnectionHolder.Connector<String, String>, PubSubConnector {

		@Override
		public CompletableFuture<StatefulConnection<String, String>> connect(int database) {
			return this.commands.connect(database);
		}

		@Override
		public <K, V> CompletableFuture<StatefulRedisPubSubConnection<K, V>> connectPubSub(RedisCodec<K, V> codec) {
			return this.pubSub.connectPubSub(codec);
		}

	}

	@org.junit.jupiter.api.Test
	void aHeartbeatThatTimesOutIsAsLateAsOneUnanswered() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			Recorder recorder = new Recorder();
			// commands time out after 300 ms, before a 1 s heartbeat could be seen late
			RedisURI uri = RedisURI.builder(RedisURI.create(redis.endpoint().uri()))
				.withTimeout(Duration.ofMillis(300))
				.build();
			try (KeyInvalidations invalidations = KeyInvalidations.open(client, uri, List.of("cache:"), recorder)
				.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				redis.command("CLIENT", "PAUSE", "4000", "ALL");
				Wait.until(TIMEOUT, () -> recorder.lost.get() == 1);
				assertThat(invalidations.isTracking()).isFalse();
				Wait.until(TIMEOUT, () -> recorder.restored.get() == 2);
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	static Stream<Arguments> serversAndProtocols() {
		return servers().flatMap((server) -> Stream.of(ProtocolVersion.RESP3, ProtocolVersion.RESP2)
			.map((protocol) -> Arguments.of(server.get()[0], server.get()[1], protocol)));
	}

	@ParameterizedTest(name = "{0} over {2}")
	@MethodSource("serversAndProtocols")
	void aWriteOnTheTrackingConnectionIsReportedToOthersButNotBack(String name, Supplier<RedisServer> start,
			ProtocolVersion protocol) throws Exception {
		try (RedisServer redis = start.get()) {
			RedisClient client = RedisClient.create();
			client.setOptions(ClientOptions.builder().protocolVersion(protocol).build());
			RedisURI uri = RedisURI.create(redis.endpoint().uri());
			Recorder writer = new Recorder();
			Recorder other = new Recorder();
			try (KeyInvalidations writing = KeyInvalidations.open(client, uri, List.of("cache:"), writer)
				.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
					KeyInvalidations watching = KeyInvalidations.open(client, uri, List.of("cache:"), other)
						.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				writing.write(bytes("cache:own"), bytes("v"), Duration.ofMinutes(1))
					.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				writing.write(bytes("cache:forever"), bytes("w"), null).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				redis.command("SET", "cache:foreign", "x");
				// reports reach a connection in the order of the writes: the writes' own came first
				Wait.until(TIMEOUT, () -> writer.keys.contains("cache:foreign"));
				assertThat(writer.keys).containsExactly("cache:foreign");
				Wait.until(TIMEOUT, () -> other.keys.containsAll(List.of("cache:own", "cache:forever", "cache:foreign")));

				assertThat(redis.command("GET", "cache:own")).isEqualTo("v");
				assertThat((Long) redis.command("PTTL", "cache:own")).isBetween(1L, 60_000L);
				assertThat((Long) redis.command("PTTL", "cache:forever")).isEqualTo(-1L);
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@org.junit.jupiter.api.Test
	void aWriteThatNeverLeftIsNotAppliedAndARetiredTrackingClosesOnceItsWritesCompleted() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			RedisURI uri = RedisURI.create(redis.endpoint().uri());
			try {
				KeyInvalidations closed = KeyInvalidations.open(client, uri, List.of("cache:"), new Recorder())
					.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				closed.close();
				assertThat(closed.write(bytes("cache:never"), bytes("v"), null).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
					.as("a write on a closed connection: never sent")
					.isFalse();
				assertThat(redis.command("EXISTS", "cache:never")).isEqualTo(0L);

				KeyInvalidations retired = KeyInvalidations.open(client, uri, List.of("cache:"), new Recorder())
					.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				redis.command("CLIENT", "PAUSE", "5000", "WRITE");
				CompletableFuture<Boolean> underWay = retired.write(bytes("cache:late"), bytes("v"), null);
				retired.closeWhenWritten();
				assertThat(retired.isClosed()).as("closed while a write was under way").isFalse();
				assertThat(retired.write(bytes("cache:after"), bytes("v"), null).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
					.as("a write on a retiring tracking: never sent")
					.isFalse();
				redis.command("CLIENT", "UNPAUSE");
				assertThat(underWay.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
				Wait.until(TIMEOUT, retired::isClosed);
				assertThat(redis.command("GET", "cache:late")).isEqualTo("v");
				assertThat(redis.command("EXISTS", "cache:after")).isEqualTo(0L);
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	/** Everything a {@link KeyInvalidations} reported. */
	private static final class Recorder implements KeyInvalidations.Listener {

		final List<String> keys = new CopyOnWriteArrayList<>();

		final AtomicInteger flushes = new AtomicInteger();

		final AtomicInteger lost = new AtomicInteger();

		final AtomicInteger restored = new AtomicInteger();

		@Override
		public void invalidated(List<String> keys) {
			this.keys.addAll(keys);
		}

		@Override
		public void flushed() {
			this.flushes.incrementAndGet();
		}

		@Override
		public void trackingLost() {
			this.lost.incrementAndGet();
		}

		@Override
		public void trackingTrusted() {
			this.restored.incrementAndGet();
		}

	}

}
