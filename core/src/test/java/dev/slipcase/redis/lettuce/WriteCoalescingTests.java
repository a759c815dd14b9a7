package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WriteCoalescing} against a real server: a handler nearest the socket counts
 * the flushes that reach it, which are the socket writes Netty makes.
 */
class WriteCoalescingTests {

	private static final int BURST = 200;

	private final RedisServer redis = RedisServers.shared();

	@Test
	void commandsIssuedWhileTheEventLoopIsBusyLeaveInOneFlush() throws Exception {
		assertThat(burstFlushes(WriteCoalescing.nettyCustomizer(null))).isLessThanOrEqualTo(2);
	}

	@Test
	void withoutCoalescingEachCommandIsFlushedOnItsOwn() throws Exception {
		assertThat(burstFlushes(null)).isGreaterThanOrEqualTo(BURST);
	}

	@Test
	void aLoneCallerIsFlushedRightAwayForEachCommand() throws Exception {
		FlushCounter counter = new FlushCounter();
		ClientResources resources = ClientResources.builder()
			.nettyCustomizer(counting(WriteCoalescing.nettyCustomizer(null), counter))
			.build();
		RedisClient client = RedisClient.create(resources, uri());
		try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
			int before = counter.flushes.get();
			for (int i = 0; i < 100; i++) {
				connection.sync().set("coalescing:lone", Integer.toString(i));
			}
			assertThat(counter.flushes.get() - before).isEqualTo(100);
			assertThat(connection.sync().get("coalescing:lone")).isEqualTo("99");
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void concurrentCallersKeepTheOrderOfEachCallersCommands() throws Exception {
		ClientResources resources = WriteCoalescing.configure(ClientResources.builder()).build();
		RedisClient client = RedisClient.create(resources, uri());
		try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
			assertThat(WriteCoalescing.isInstalled(ConnectionChannels.channelOf((RedisChannelHandler<?, ?>) connection))).isTrue();
			int threads = 8;
			int appends = 2_000;
			List<CompletableFuture<Void>> callers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				String key = "coalescing:order:" + t;
				connection.sync().del(key);
				callers.add(CompletableFuture.runAsync(() -> {
					RedisAsyncCommands<String, String> async = connection.async();
					List<CompletableFuture<Long>> replies = new ArrayList<>();
					for (int i = 0; i < appends; i++) {
						replies.add(async.append(key, i + ",").toCompletableFuture());
					}
					CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).join();
				}, (task) -> new Thread(task).start()));
			}
			CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			StringBuilder expected = new StringBuilder();
			for (int i = 0; i < appends; i++) {
				expected.append(i).append(',');
			}
			for (int t = 0; t < threads; t++) {
				assertThat(connection.sync().get("coalescing:order:" + t)).isEqualTo(expected.toString());
			}
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void aClientBuiltWithoutItCoalescesOnEveryChannelAfterApplyToReconnectsIncluded() throws Exception {
		RedisClient client = RedisClient.create(uri());
		try {
			assertThat(WriteCoalescing.applyTo(client)).isTrue();
			try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
				Channel first = channel(connection);
				assertThat(WriteCoalescing.isInstalled(first)).isTrue();
				String id = Long.toString(connection.sync().clientId());
				this.redis.command("CLIENT", "KILL", "ID", id);
				assertThat(connection.sync().ping()).isEqualTo("PONG");
				Channel second = channel(connection);
				assertThat(second).isNotSameAs(first);
				assertThat(WriteCoalescing.isInstalled(second)).isTrue();
			}
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	@Test
	void aClientWhoseResourcesDisableItIsLeftAsItIs() throws Exception {
		ClientResources resources = WriteCoalescing.disable(ClientResources.builder()).build();
		RedisClient client = RedisClient.create(resources, uri());
		try {
			assertThat(WriteCoalescing.applyTo(client)).isFalse();
			try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
				assertThat(WriteCoalescing.isInstalled(channel(connection))).isFalse();
			}
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void aClusterClientCoalescesOnEveryNodesConnection() throws Exception {
		RedisCluster cluster = RedisServers.sharedCluster();
		RedisClusterClient client = RedisClusterClient
			.create(cluster.endpoints().stream().map((endpoint) -> RedisURI.create(endpoint.uri())).toList());
		try {
			assertThat(WriteCoalescing.applyTo(client)).isTrue();
			try (StatefulRedisClusterConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
				List<CompletableFuture<String>> writes = new ArrayList<>();
				for (int i = 0; i < 300; i++) {
					writes.add(connection.async().set("coalescing:cluster:" + i, "v" + i).toCompletableFuture());
				}
				CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
				for (int i = 0; i < 300; i++) {
					assertThat(connection.sync().get("coalescing:cluster:" + i)).isEqualTo("v" + i);
				}
				List<RedisClusterNode> masters = connection.getPartitions()
					.stream()
					.filter((node) -> node.is(RedisClusterNode.NodeFlag.UPSTREAM))
					.toList();
				assertThat(masters).hasSize(3);
				for (RedisClusterNode master : masters) {
					Channel channel = ConnectionChannels
						.channelOf((RedisChannelHandler<?, ?>) connection.getConnection(master.getNodeId()));
					assertThat(channel).isNotNull();
					assertThat(WriteCoalescing.isInstalled(channel)).as(master.getUri().toString()).isTrue();
				}
			}
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	/**
	 * Holds the connection's event loop while {@value #BURST} commands are issued, then lets it go
	 * and counts the flushes that reached the socket for them.
	 */
	private int burstFlushes(NettyCustomizer coalescing) throws Exception {
		FlushCounter counter = new FlushCounter();
		ClientResources resources = ClientResources.builder().nettyCustomizer(counting(coalescing, counter)).build();
		RedisClient client = RedisClient.create(resources, uri());
		try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8)) {
			connection.sync().ping();
			Channel channel = channel(connection);
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			channel.eventLoop().execute(() -> {
				held.countDown();
				await(release);
			});
			held.await(10, TimeUnit.SECONDS);
			int before = counter.flushes.get();
			List<CompletableFuture<String>> replies = new ArrayList<>();
			for (int i = 0; i < BURST; i++) {
				replies.add(connection.async().set("coalescing:burst:" + i, "v" + i).toCompletableFuture());
			}
			release.countDown();
			CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
			assertThat(replies).allSatisfy((reply) -> assertThat(reply.join()).isEqualTo("OK"));
			assertThat(connection.sync().get("coalescing:burst:" + (BURST - 1))).isEqualTo("v" + (BURST - 1));
			return counter.flushes.get() - before - 1;
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	private RedisURI uri() {
		return RedisURI.create(this.redis.endpoint().uri());
	}

	private static Channel channel(StatefulRedisConnection<?, ?> connection) {
		Channel channel = ConnectionChannels.channelOf((RedisChannelHandler<?, ?>) connection);
		assertThat(channel).as("the connection's channel").isNotNull();
		return channel;
	}

	/** {@code coalescing} (if any), then the counter nearest the socket. */
	private static NettyCustomizer counting(NettyCustomizer coalescing, FlushCounter counter) {
		return new NettyCustomizer() {

			@Override
			public void afterChannelInitialized(Channel channel) {
				if (coalescing != null) {
					coalescing.afterChannelInitialized(channel);
				}
				channel.pipeline().addFirst("flushCounter", counter);
			}

		};
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Sharable
	private static final class FlushCounter extends ChannelOutboundHandlerAdapter {

		final AtomicInteger flushes = new AtomicInteger();

		@Override
		public void flush(ChannelHandlerContext ctx) {
			this.flushes.incrementAndGet();
			ctx.flush();
		}

	}

}
