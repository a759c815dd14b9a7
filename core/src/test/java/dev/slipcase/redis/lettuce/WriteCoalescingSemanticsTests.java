package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.fault.FaultProxy;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What Lettuce promises a caller still holds with {@link WriteCoalescing} on every channel, each
 * against a real server: transactions of concurrent callers, pub/sub, a blocking command on a
 * dedicated connection, timeouts and cancellation, and commands queued while disconnected.
 */
class WriteCoalescingSemanticsTests {

	private final RedisServer redis = RedisServers.shared();

	private ClientResources resources;

	private RedisClient client;

	@BeforeEach
	void createClient() {
		this.resources = WriteCoalescing.configure(ClientResources.builder()).build();
		this.client = RedisClient.create(this.resources, RedisURI.create(this.redis.endpoint().uri()));
	}

	@AfterEach
	void shutDown() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

	@Test
	void transactionsOfConcurrentCallersOnTheirOwnConnectionsStayWhole() throws Exception {
		int callers = 8;
		int blocks = 200;
		List<CompletableFuture<Void>> running = new ArrayList<>();
		for (int c = 0; c < callers; c++) {
			String key = "coalescing:tx:" + c;
			running.add(CompletableFuture.runAsync(() -> {
				try (StatefulRedisConnection<String, String> connection = this.client.connect(StringCodec.UTF8)) {
					assertThat(WriteCoalescing.isInstalled(channel(connection))).isTrue();
					RedisCommands<String, String> sync = connection.sync();
					sync.del(key);
					for (int b = 0; b < blocks; b++) {
						sync.multi();
						sync.rpush(key, "a" + b);
						sync.rpush(key, "b" + b);
						TransactionResult result = sync.exec();
						assertThat(result.wasDiscarded()).isFalse();
						assertThat(result).hasSize(2);
					}
					List<String> all = sync.lrange(key, 0, -1);
					assertThat(all).hasSize(2 * blocks);
					for (int b = 0; b < blocks; b++) {
						assertThat(all.subList(2 * b, 2 * b + 2)).containsExactly("a" + b, "b" + b);
					}
				}
			}, (task) -> new Thread(task).start()));
		}
		CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		assertThat(((String) this.redis.command("CLIENT", "LIST")).lines().filter((line) -> line.contains(" flags=x ")))
			.as("connections left inside MULTI").isEmpty();
	}

	@Test
	void pubSubDeliversEveryMessageOfEachPublisherInOrder() throws Exception {
		int publishers = 4;
		int messages = 500;
		Map<String, List<String>> received = new ConcurrentHashMap<>();
		CountDownLatch all = new CountDownLatch(publishers * messages);
		try (StatefulRedisPubSubConnection<String, String> subscriber = this.client.connectPubSub(StringCodec.UTF8);
				StatefulRedisConnection<String, String> publisher = this.client.connect(StringCodec.UTF8)) {
			assertThat(WriteCoalescing.isInstalled(channel(subscriber))).isTrue();
			subscriber.addListener(new RedisPubSubAdapter<>() {

				@Override
				public void message(String channel, String message) {
					received.computeIfAbsent(message.substring(0, message.indexOf(':')), (p) -> new ArrayList<>())
						.add(message);
					all.countDown();
				}

			});
			subscriber.sync().subscribe("coalescing:channel");
			List<CompletableFuture<Void>> publishing = new ArrayList<>();
			for (int p = 0; p < publishers; p++) {
				String name = "p" + p;
				publishing.add(CompletableFuture.runAsync(() -> {
					for (int m = 0; m < messages; m++) {
						publisher.async().publish("coalescing:channel", name + ":" + m);
					}
				}, (task) -> new Thread(task).start()));
			}
			CompletableFuture.allOf(publishing.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
			assertThat(all.await(30, TimeUnit.SECONDS)).as("every message delivered").isTrue();
			for (int p = 0; p < publishers; p++) {
				List<String> expected = new ArrayList<>();
				for (int m = 0; m < messages; m++) {
					expected.add("p" + p + ":" + m);
				}
				assertThat(received.get("p" + p)).containsExactlyElementsOf(expected);
			}
		}
	}

	@Test
	void aBlockingCommandOnItsOwnConnectionGetsWhatAnotherConnectionPushes() throws Exception {
		try (StatefulRedisConnection<String, String> blocking = this.client.connect(StringCodec.UTF8);
				StatefulRedisConnection<String, String> pushing = this.client.connect(StringCodec.UTF8)) {
			pushing.sync().del("coalescing:queue");
			BlockingQueue<KeyValue<String, String>> popped = new LinkedBlockingQueue<>();
			CompletableFuture<Void> popping = CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 20; i++) {
					popped.add(blocking.sync().blpop(10, "coalescing:queue"));
				}
			}, (task) -> new Thread(task).start());
			for (int i = 0; i < 20; i++) {
				Thread.sleep(2);
				pushing.sync().rpush("coalescing:queue", "item-" + i);
			}
			popping.get(30, TimeUnit.SECONDS);
			assertThat(popped).extracting(KeyValue::getValue)
				.containsExactlyElementsOf(IntStream.range(0, 20).mapToObj((i) -> "item-" + i).toList());
		}
	}

	@Test
	void aCommandThatTimesOutIsCancelledAndTheConnectionGoesOnWithTheRightReplies() throws Exception {
		try (RedisServer own = RedisServers.start()) {
			RedisClient ownClient = RedisClient.create(this.resources, RedisURI.create(own.endpoint().uri()));
			try (StatefulRedisConnection<String, String> connection = ownClient.connect(StringCodec.UTF8)) {
				connection.setTimeout(Duration.ofMillis(200));
				connection.sync().set("coalescing:timeout", "value");
				// the server serves no client for a second: the GET's reply comes after its timeout
				own.command("CLIENT", "PAUSE", "1000");
				assertThatExceptionOfType(RedisCommandTimeoutException.class)
					.isThrownBy(() -> connection.sync().get("coalescing:timeout"));
				connection.setTimeout(Duration.ofSeconds(10));
				for (int i = 0; i < 50; i++) {
					connection.sync().set("coalescing:timeout:" + i, "v" + i);
					assertThat(connection.sync().get("coalescing:timeout:" + i)).isEqualTo("v" + i);
				}
			}
			finally {
				ownClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@Test
	void readsIssuedWhileDisconnectedAreSentAfterTheReconnect() throws Exception {
		try (FaultProxy proxy = FaultProxy.start(this.redis.endpoint())) {
			RedisClient proxied = RedisClient.create(this.resources, RedisURI.create(proxy.endpoint().uri()));
			try (StatefulRedisConnection<String, String> connection = proxied.connect(StringCodec.UTF8)) {
				connection.sync().set("coalescing:replay", "value");
				proxy.refuseConnections();
				proxy.cut();
				List<CompletableFuture<String>> reads = new ArrayList<>();
				for (int i = 0; i < 20; i++) {
					reads.add(connection.async().get("coalescing:replay").toCompletableFuture());
				}
				Thread.sleep(300);
				proxy.heal();
				CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
				assertThat(reads).allSatisfy((read) -> assertThat(read.join()).isEqualTo("value"));
				assertThat(WriteCoalescing.isInstalled(channel(connection))).as("after the reconnect").isTrue();
			}
			finally {
				proxied.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static Channel channel(StatefulRedisConnection<?, ?> connection) {
		return channelOf((RedisChannelHandler<?, ?>) connection);
	}

	private static Channel channel(StatefulRedisPubSubConnection<?, ?> connection) {
		return channelOf((RedisChannelHandler<?, ?>) connection);
	}

	private static Channel channelOf(RedisChannelHandler<?, ?> connection) {
		Channel channel = ConnectionChannels.channelOf(connection);
		assertThat(channel).isNotNull();
		return channel;
	}

}
