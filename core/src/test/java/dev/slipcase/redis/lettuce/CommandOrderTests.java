package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoop;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link ConnectionHolder} writes commands to Redis in the order in which they were
 * sent, whichever threads send them, against a real server: each test {@code APPEND}s numbered
 * parts to one key, so the value Redis ends with is the order the commands arrived in.
 */
@ExtendWith(RedisExtension.class)
class CommandOrderTests {

	private static final String KEY_NAME = "ordered";

	private static final byte[] KEY = KEY_NAME.getBytes(StandardCharsets.US_ASCII);

	private static RedisServer redis;

	private static RedisClient client;

	private static ConnectionHolder.Connector<byte[], byte[]> connector;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		connector = Connectors.of(client, RedisURI.create(server.endpoint().uri()), ByteArrayCodec.INSTANCE);
	}

	@AfterAll
	static void shutdown() {
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	/**
	 * The upload of a chunked value sends its first chunks from the subscriber's thread and the
	 * next ones from the event loop, as the replies come in: Netty wrote one sent on the loop at
	 * once, ahead of the write tasks that other threads had queued on the loop before it.
	 */
	@Test
	void aCommandSentOnTheEventLoopGoesAfterOneAnotherThreadSentBeforeIt() throws Exception {
		try (ConnectionHolder<byte[], byte[]> holder = holder(connector)) {
			Channel channel = ConnectionChannels.channelOf((RedisChannelHandler<?, ?>) holder.get().get(10, TimeUnit.SECONDS));
			appendFromAnotherThreadThenFromTheLoop(holder, channel);
			assertThat(redis.command("GET", KEY_NAME)).isEqualTo("12");
		}
	}

	/** The same on a cluster, where the command goes to the connection of the key's master. */
	@Test
	void onAClusterACommandSentOnTheEventLoopGoesAfterOneAnotherThreadSentBeforeIt() throws Exception {
		RedisCluster cluster = RedisServers.sharedCluster();
		RedisClusterClient clusterClient = RedisClusterClient
			.create(cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList());
		try (StatefulRedisClusterConnection<byte[], byte[]> connection = clusterClient.connect(ByteArrayCodec.INSTANCE);
				ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.borrowing(connection, ByteArrayCodec.INSTANCE)) {
			connection.sync().del(KEY);
			RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(KEY));
			Channel channel = ConnectionChannels
				.channelOf((RedisChannelHandler<?, ?>) connection.getConnection(master.getUri().getHost(),
						master.getUri().getPort()));
			appendFromAnotherThreadThenFromTheLoop(holder, channel);
			assertThat(new String(connection.sync().get(KEY), StandardCharsets.US_ASCII)).isEqualTo("12");
		}
		finally {
			clusterClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	/**
	 * A command sent on another event loop, busy with tasks of its own, is handed to the channel's
	 * loop at once: queued behind the other loop's tasks, it was overtaken by one a plain thread
	 * sent after it (and a blocking call there would wait on a task queued behind itself).
	 */
	@Test
	void aCommandSentOnAnotherBusyEventLoopGoesBeforeOneSentAfterIt() throws Exception {
		DefaultEventLoop other = new DefaultEventLoop();
		try (ConnectionHolder<byte[], byte[]> holder = holder(connector)) {
			holder.get().get(10, TimeUnit.SECONDS);
			CountDownLatch release = new CountDownLatch(1);
			CompletableFuture<AsyncCommand<byte[], byte[], Long>> first = new CompletableFuture<>();
			other.execute(() -> {
				try {
					other.execute(() -> {
					}); // a task of its own queued behind this one
					first.complete(holder.dispatcher(0).send(append("1")));
					assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
				}
				catch (Throwable ex) {
					first.completeExceptionally(ex);
				}
			});
			AsyncCommand<byte[], byte[], Long> sentFirst = first.get(10, TimeUnit.SECONDS);
			AsyncCommand<byte[], byte[], Long> second = holder.dispatcher(0).send(append("2"));
			second.get(10, TimeUnit.SECONDS);
			release.countDown();
			sentFirst.get(10, TimeUnit.SECONDS);
			assertThat(redis.command("GET", KEY_NAME)).isEqualTo("12");
		}
		finally {
			other.shutdownGracefully(0, 2, TimeUnit.SECONDS);
		}
	}

	/**
	 * Appends "1" from this thread while {@code channel}'s event loop is held, so that its write
	 * task waits behind it, and then "2" from the loop.
	 */
	private static void appendFromAnotherThreadThenFromTheLoop(ConnectionHolder<byte[], byte[]> holder,
			@Nullable Channel channel) throws Exception {
		assertThat(channel).isNotNull();
		CountDownLatch firstSent = new CountDownLatch(1);
		CompletableFuture<AsyncCommand<byte[], byte[], Long>> second = new CompletableFuture<>();
		// the loop is held until this thread has sent the first part, whose write task then waits behind it
		channel.eventLoop().execute(() -> {
			try {
				assertThat(firstSent.await(10, TimeUnit.SECONDS)).isTrue();
				second.complete(holder.dispatcher(0).send(append("2")));
			}
			catch (Throwable ex) {
				second.completeExceptionally(ex);
			}
		});
		AsyncCommand<byte[], byte[], Long> first = holder.dispatcher(0).send(append("1"));
		firstSent.countDown();
		first.get(10, TimeUnit.SECONDS);
		second.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
	}

	@Test
	void commandsSentWhileTheConnectionOpensGoOutInTheOrderSent() throws Exception {
		// a future that a plain complete completes: its dependents run in no promised order (the
		// last added first, in practice)
		CompletableFuture<StatefulConnection<byte[], byte[]>> opening = new CompletableFuture<>();
		try (ConnectionHolder<byte[], byte[]> holder = holder((database) -> opening)) {
			List<CompletableFuture<Long>> sent = new ArrayList<>();
			StringBuilder expected = new StringBuilder();
			for (int part = 0; part < 20; part++) {
				String text = Integer.toString(part % 10);
				if (part % 5 == 4) {
					// some in one write of their own, as a pipeline sends them
					AsyncCommand<byte[], byte[], Long> one = append(text);
					AsyncCommand<byte[], byte[], Long> two = append(text);
					holder.dispatcher(0).send(List.of(one, two));
					sent.add(one);
					sent.add(two);
					expected.append(text).append(text);
				}
				else {
					sent.add(holder.dispatcher(0).send(append(text)));
					expected.append(text);
				}
			}
			assertThat(sent).noneMatch(CompletableFuture::isDone);
			opening.complete(connector.connect(0).get(10, TimeUnit.SECONDS));
			CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
			assertThat(redis.command("GET", KEY_NAME)).isEqualTo(expected.toString());
			// and one sent once it is open goes after them
			holder.dispatcher(0).send(append("!")).get(10, TimeUnit.SECONDS);
			assertThat(redis.command("GET", KEY_NAME)).isEqualTo(expected + "!");
		}
	}

	@Test
	void commandsSentWhileTheConnectionFailsToOpenFailWithTheCause() {
		IllegalStateException refused = new IllegalStateException("refused");
		CompletableFuture<StatefulConnection<byte[], byte[]>> opening = new CompletableFuture<>();
		try (ConnectionHolder<byte[], byte[]> holder = holder((database) -> opening)) {
			AsyncCommand<byte[], byte[], Long> one = holder.dispatcher(0).send(append("1"));
			AsyncCommand<byte[], byte[], Long> two = append("2");
			holder.dispatcher(0).send(List.of(two));
			opening.completeExceptionally(refused);
			assertThat(List.of(one, two)).allSatisfy((command) -> assertThat(command)
				.failsWithin(Duration.ofSeconds(10))
				.withThrowableOfType(java.util.concurrent.ExecutionException.class)
				.havingCause()
				.isSameAs(refused));
		}
	}

	private static ConnectionHolder<byte[], byte[]> holder(ConnectionHolder.Connector<byte[], byte[]> connector) {
		return ConnectionHolder.opening(connector, ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(5));
	}

	private static AsyncCommand<byte[], byte[], Long> append(String part) {
		return new AsyncCommand<>(new Command<>(CommandType.APPEND, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(KEY).addValue(part.getBytes(StandardCharsets.US_ASCII))));
	}

}
