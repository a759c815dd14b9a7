package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ConnectionHolder}, and the {@link CommandChannel} that keeps its dispatcher, against a real server of its own, whose connected clients it
 * counts.
 */
class ConnectionHolderTests {

	@Test
	void aCallerThatGivesUpWaitingForTheConnectionLeavesItOpeningForTheOthers() {
		AtomicInteger opens = new AtomicInteger();
		CompletableFuture<StatefulConnection<byte[], byte[]>> opening = new CompletableFuture<>();
		ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.opening((database) -> {
			opens.incrementAndGet();
			return opening;
		}, ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(5));
		OrderedDispatcher<byte[], byte[]> dispatcher = holder.dispatcher(0);
		holder.get(0).cancel(false); // as CommandChannel.await does when its timeout passes
		assertThat(holder.dispatcher(0)).isSameAs(dispatcher).isNotDone();
		assertThat(opens).hasValue(1);
		holder.close();
	}

	@Test
	void aConnectionOpenedWhileTheHolderClosesIsClosedToo() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			try {
				ConnectionHolder.Connector<byte[], byte[]> connector = Connectors.of(client,
						RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE);
				List<CompletableFuture<?>> opens = new CopyOnWriteArrayList<>();
				ConnectionHolder.Connector<byte[], byte[]> recording = (database) -> {
					CompletableFuture<StatefulConnection<byte[], byte[]>> open = connector.connect(database);
					opens.add(open);
					return open;
				};
				for (int round = 0; round < 100; round++) {
					ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.opening(recording,
							ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(5));
					int database = round % 4;
					CountDownLatch start = new CountDownLatch(1);
					CompletableFuture<?> getting = CompletableFuture.runAsync(() -> {
						await(start);
						holder.get(database);
					});
					CompletableFuture<?> closing = CompletableFuture.runAsync(() -> {
						await(start);
						holder.close();
					});
					start.countDown();
					CompletableFuture.allOf(getting, closing).get(30, TimeUnit.SECONDS);
				}
				// every open has ended (no connection still on its way to the server), so from here the
				// count can only fall: a connection the holders left open keeps it above zero
				CompletableFuture.allOf(opens.stream()
					.map((open) -> open.handle((connection, ex) -> null))
					.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
				while (holderConnections(redis) > 0 && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(holderConnections(redis)).as("connections the holders left open").isZero();
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@Test
	void aChannelFailsItsCommandsOnceItsHolderClosedThoughItHadAnOpenConnection() {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			try {
				ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.opening(Connectors.of(client,
						RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE), ByteArrayCodec.INSTANCE,
						false, 0, Duration.ofSeconds(5));
				CommandChannel<byte[], byte[]> channel = new CommandChannel<>(holder, 0, Duration.ofSeconds(5));
				assertThat(channel.call(ping(), "ping", null)).isEqualTo("PONG");
				holder.close();
				assertThatIllegalStateException().isThrownBy(() -> channel.call(ping(), "ping", null))
					.withMessage("The template is closed");
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	/**
	 * While {@code close()} goes through the connections of 16 databases, a channel that had a
	 * connection sends a {@code SET} once the holder says it is closed: it fails as closed and is
	 * never written.
	 */
	@Test
	void aChannelSendingWhileItsHolderClosesFailsAsClosedAndWritesNothing() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			try {
				ConnectionHolder.Connector<byte[], byte[]> connector = Connectors.of(client,
						RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE);
				List<String> sent = new ArrayList<>();
				for (int round = 0; round < 30; round++) {
					ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.opening(connector,
							ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(5));
					List<CommandChannel<byte[], byte[]>> channels = new ArrayList<>();
					for (int database = 0; database < 16; database++) {
						CommandChannel<byte[], byte[]> channel = new CommandChannel<>(holder, database,
								Duration.ofSeconds(5));
						assertThat(channel.call(ping(), "ping", null)).isEqualTo("PONG");
						channels.add(channel);
					}
					CompletableFuture<Void> closing = CompletableFuture.runAsync(holder::close);
					while (!holder.get(15).isCompletedExceptionally() && !closing.isDone()) {
						Thread.onSpinWait();
					}
					sent.add("closing:" + round);
					byte[] key = ("closing:" + round).getBytes(StandardCharsets.UTF_8);
					CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key)
						.addValue(key);
					assertThatIllegalStateException()
						.isThrownBy(() -> channels.get(15).call(SlipcaseCommand.write(CommandType.SET,
								new StatusOutput<>(ByteArrayCodec.INSTANCE), args), "set", null))
						.withMessage("The template is closed");
					closing.get(10, TimeUnit.SECONDS);
				}
				RedisURI database15 = RedisURI.create(redis.endpoint().uri());
				database15.setDatabase(15);
				try (StatefulRedisConnection<String, String> check = client.connect(StringCodec.UTF8, database15)) {
					assertThat(check.sync().exists(sent.toArray(String[]::new)))
						.as("SETs written after the holder said it was closed")
						.isZero();
				}
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@Test
	void aChannelWhoseConnectionClosedForGoodSendsOnTheNextOneTheHolderOpens() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			RedisClient client = RedisClient.create();
			try {
				ConnectionHolder.Connector<byte[], byte[]> connector = Connectors.of(client,
						RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE);
				AtomicInteger opens = new AtomicInteger();
				ConnectionHolder<byte[], byte[]> holder = ConnectionHolder.opening((database) -> {
					opens.incrementAndGet();
					return connector.connect(database);
				}, ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(5));
				CommandChannel<byte[], byte[]> channel = new CommandChannel<>(holder, 0, Duration.ofSeconds(5));
				assertThat(channel.call(ping(), "ping", null)).isEqualTo("PONG");
				channel.dispatcher().get(5, TimeUnit.SECONDS).close();
				assertThat(channel.call(ping(), "ping", null)).isEqualTo("PONG");
				assertThat(opens).hasValue(2);
				holder.close();
			}
			finally {
				client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static SlipcaseCommand<byte[], byte[], String> ping() {
		return SlipcaseCommand.read(CommandType.PING, new StatusOutput<>(ByteArrayCodec.INSTANCE),
				new CommandArgs<>(ByteArrayCodec.INSTANCE));
	}

	/**
	 * The server's connections but those that counted: each count opens a connection of its own,
	 * whose last command is {@code CLIENT LIST}, and the server may still list an earlier one for a
	 * moment after it closed.
	 */
	private static long holderConnections(RedisServer redis) {
		return ((String) redis.command("CLIENT", "LIST")).lines()
			.filter((client) -> !client.contains(" cmd=client|list "))
			.count();
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
