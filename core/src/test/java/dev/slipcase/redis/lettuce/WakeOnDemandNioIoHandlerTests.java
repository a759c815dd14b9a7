package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link WakeOnDemandNioIoHandler} and {@link WakeOnDemandEventLoopGroupProvider}: the
 * selector is woken for a task handed to a loop blocked in it and never for one handed to a loop
 * busy with a task or with a reply, and Lettuce's connections (commands, pub/sub, a reconnect) run on it against a real
 * server.
 */
class WakeOnDemandNioIoHandlerTests {

	private final RedisServer redis = RedisServers.shared();

	private final List<WakeOnDemandNioIoHandler> handlers = new CopyOnWriteArrayList<>();

	private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
			recordingFactory(WakeOnDemandNioIoHandler.DEFAULT_BUSY_POLL));

	@AfterEach
	void shutDown() throws InterruptedException {
		this.group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
	}

	@Test
	void aTaskHandedToALoopBlockedInItsSelectorWakesIt() throws Exception {
		this.group.submit(() -> null).get(30, TimeUnit.SECONDS);
		WakeOnDemandNioIoHandler handler = this.handlers.get(0);
		long first = handler.selectorWakeups();
		for (int i = 0; i < 50; i++) {
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			long before = handler.selectorWakeups();
			AtomicInteger ran = new AtomicInteger();
			this.group.submit(ran::incrementAndGet).get(30, TimeUnit.SECONDS);
			assertThat(ran).hasValue(1);
			assertThat(handler.selectorWakeups() - before).isLessThanOrEqualTo(1);
		}
		// every hand-over found the loop blocked, but for one whose select timed out (once a second)
		// between the check and the hand-over
		assertThat(handler.selectorWakeups() - first).isGreaterThanOrEqualTo(45);
	}

	@Test
	void tasksHandedToALoopBusyWithAReplyDoNotWakeItsSelector() throws Exception {
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch handedOver = new CountDownLatch(1);
		Channel channel = connect(new ChannelInboundHandlerAdapter() {

			@Override
			public void channelRead(ChannelHandlerContext ctx, Object message) {
				ReferenceCountUtil.release(message);
				reading.countDown();
				await(handedOver);
			}

		});
		channel.writeAndFlush(Unpooled.copiedBuffer("PING\r\n", StandardCharsets.US_ASCII));
		assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(selectorWakeupsWhileHandingOverTasksUntil(handedOver)).isZero();
		channel.close().sync();
	}

	@Test
	void tasksHandedToABusyLoopDoNotWakeItsSelector() throws Exception {
		CountDownLatch busy = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.group.execute(() -> {
			busy.countDown();
			await(release);
		});
		assertThat(busy.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(selectorWakeupsWhileHandingOverTasksUntil(release)).isZero();
	}

	/**
	 * A loop whose work comes soon after it blocks polls before it blocks the next time, for a
	 * window that grows until the work comes within it: tasks handed over one after another then
	 * find it polling, and no one wakes its selector (a loop that blocked at once was woken for
	 * each, see above). The longest poll here is 30 s, and a task scheduled an hour ahead keeps the
	 * loop's select from its usual once-a-second timeout.
	 */
	@Test
	void tasksHandedToALoopThatIsGivenWorkSoonAfterItBlocksFindItPolling() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(30))));
		try {
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			// woken within 30 s of blocking: it will poll
			assertThat(polling.submit(handler::pollNanos).get(30, TimeUnit.SECONDS)).isPositive();
			for (int i = 0; i < 200; i++) {
				// a poll that did not look for tasks would double its window with each, and soon
				// find one only after seconds
				polling.submit(() -> null).get(5, TimeUnit.SECONDS);
			}
			long before = handler.selectorWakeups();
			for (int i = 0; i < 50; i++) {
				AtomicInteger ran = new AtomicInteger();
				// a poll that did not look for tasks would find this one only after its window
				polling.submit(ran::incrementAndGet).get(20, TimeUnit.SECONDS);
				assertThat(ran).hasValue(1);
			}
			// a few hand-overs may come later than the window has grown to (the test's thread
			// descheduled for longer than the gaps so far): each wakes the loop and doubles the
			// window. A loop that does not poll is woken for nearly every one
			assertThat(handler.selectorWakeups() - before).isLessThan(10);
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * A polling loop looks for tasks handed over between its polls of the selector: each is run at
	 * once, and no one wakes the selector. The window here is 30 s from the start (successful polls
	 * leave it so), and a task scheduled an hour ahead keeps the loop from cutting it short for its
	 * select's usual once-a-second timeout.
	 */
	@Test
	void tasksHandedToALoopWhileItPollsDoNotWakeItsSelector() throws Exception {
		long thirtySeconds = TimeUnit.SECONDS.toNanos(30);
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(thirtySeconds, thirtySeconds)));
		try {
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			long before = handler.selectorWakeups();
			for (int i = 0; i < 50; i++) {
				AtomicInteger ran = new AtomicInteger();
				// a poll that did not look for tasks would find this one only after its 30 s
				polling.submit(ran::incrementAndGet).get(20, TimeUnit.SECONDS);
				assertThat(ran).hasValue(1);
			}
			assertThat(handler.selectorWakeups() - before).isZero();
			assertThat(polling.submit(handler::pollNanos).get(20, TimeUnit.SECONDS)).isEqualTo(thirtySeconds);
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * The window grows by doubling from 10 µs, once each time work wakes the loop within the
	 * longest poll (here 1 s, so that each hand-over, made once the loop has blocked, is within it).
	 */
	@Test
	void theWindowDoublesFrom10MicrosecondsEachTimeWorkWakesTheLoopSoonAfterItBlocks() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(1))));
		try {
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			List<Long> windows = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				Wait.until(Duration.ofSeconds(30), "the loop to block in its selector", handler::isSelecting);
				windows.add(polling.submit(handler::pollNanos).get(30, TimeUnit.SECONDS));
			}
			// the loop was woken a few times already as it started (the scheduling, handlerOf's task)
			long first = windows.get(0);
			assertThat(first % 10_000).isZero();
			assertThat(Long.bitCount(first / 10_000)).as("%s is 10 µs times a power of 2", first).isOne();
			assertThat(windows).containsExactly(first, 2 * first, 4 * first, 8 * first);
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * The wait that sets the window ends when work woke the loop, not when the loop is done with
	 * it: a reply that came soon after the loop blocked and took 1.5 s to handle still grows the
	 * window (longest poll 1 s, far above a loopback round trip). The window is read on the loop,
	 * by a task the handler queues, so that the test thread's own wake-up cannot change it.
	 */
	@Test
	void handlingAReplyForLongerThanTheLongestPollDoesNotCountAsWaiting() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(1))));
		try {
			// keeps the idle loop's select from timing out each second, and growing its window when it does
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			CompletableFuture<Long> windowAfter = new CompletableFuture<>();
			Channel channel = new Bootstrap().group(polling)
				.channel(NioSocketChannel.class)
				.handler(new ChannelInboundHandlerAdapter() {

					@Override
					public void channelRead(ChannelHandlerContext ctx, Object message) {
						ReferenceCountUtil.release(message);
						long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
						while (System.nanoTime() < end) {
							Thread.onSpinWait();
						}
						// runs once this turn is over: after the loop has set its next window
						ctx.executor().execute(() -> windowAfter.complete(handler.pollNanos()));
					}

				})
				.connect(this.redis.endpoint().host(), this.redis.endpoint().port())
				.sync()
				.channel();
			try {
				// idle for longer than the longest poll: the window drops to nothing, so the loop
				// blocks, and the reply is handled in its select rather than in a poll
				Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
				Thread.sleep(1_100);
				channel.writeAndFlush(Unpooled.copiedBuffer("PING\r\n", StandardCharsets.US_ASCII));
				assertThat(windowAfter.get(30, TimeUnit.SECONDS)).isPositive();
			}
			finally {
				channel.close().sync();
			}
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * A select that returned because a scheduled task came due is not work coming soon: the window
	 * stays as it was (longest poll 1 s, a task 20 ms ahead, scheduled from the loop itself so that
	 * no one wakes it).
	 */
	@Test
	void aScheduledTaskComingDueDoesNotGrowTheWindow() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(1))));
		try {
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			CompletableFuture<Long> whenDue = new CompletableFuture<>();
			long before = polling.submit(() -> {
				polling.schedule(() -> whenDue.complete(handler.pollNanos()), 20, TimeUnit.MILLISECONDS);
				return handler.pollNanos();
			}).get(30, TimeUnit.SECONDS);
			assertThat(before).isPositive();
			assertThat(whenDue.get(30, TimeUnit.SECONDS)).isEqualTo(before);
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * A loop left without work for longer than its longest poll stops polling: polling would not
	 * have caught the work that came, and an idle loop spends no CPU spinning. The longest poll
	 * here is 1 s, so that the handing over that makes the loop poll comes within it for certain.
	 */
	@Test
	void aLoopLeftWithoutWorkForLongerThanItsLongestPollStopsPolling() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(1))));
		try {
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			// woken well within 1 s of blocking: it will poll
			assertThat(polling.submit(handler::pollNanos).get(30, TimeUnit.SECONDS)).isPositive();
			Wait.until(Duration.ofSeconds(30), "the loop to block in its selector", handler::isSelecting);
			Thread.sleep(1_500);
			// woken 1.5 s after it blocked: polling for up to 1 s would not have caught this task
			assertThat(polling.submit(handler::pollNanos).get(30, TimeUnit.SECONDS)).isZero();
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * The poll ends: a loop with nothing to do blocks in its selector once it has polled for its
	 * window, and a task handed over then wakes it (a task scheduled an hour ahead keeps its select
	 * from timing out meanwhile). The longest poll here is 1 s, so that the hand-overs come within
	 * it for certain and the loop polls.
	 */
	@Test
	void aLoopBlocksInItsSelectorOnceItHasPolledForItsWindow() throws Exception {
		MultiThreadIoEventLoopGroup polling = new MultiThreadIoEventLoopGroup(1,
				recording(WakeOnDemandNioIoHandler.newFactoryPolling(TimeUnit.SECONDS.toNanos(1))));
		try {
			polling.schedule(() -> null, 1, TimeUnit.HOURS);
			WakeOnDemandNioIoHandler handler = handlerOf(polling);
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			for (int i = 0; i < 20; i++) {
				polling.submit(() -> null).get(30, TimeUnit.SECONDS);
			}
			assertThat(polling.submit(handler::pollNanos).get(30, TimeUnit.SECONDS)).isPositive();
			Wait.until(Duration.ofSeconds(30), "the idle loop to block in its selector", handler::isSelecting);
			long before = handler.selectorWakeups();
			AtomicInteger ran = new AtomicInteger();
			polling.submit(ran::incrementAndGet).get(30, TimeUnit.SECONDS);
			assertThat(ran).hasValue(1);
			assertThat(handler.selectorWakeups() - before).isOne();
		}
		finally {
			polling.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
		}
	}

	/** The provider's loops poll for up to the longest poll it was given. */
	@Test
	void theProvidersLoopsPollForUpToTheirLongestPoll() throws Exception {
		ThreadAwareExecutor executor = new ThreadAwareExecutor() {

			@Override
			public boolean isExecutorThread(Thread thread) {
				return false;
			}

			@Override
			public void execute(Runnable command) {
				throw new UnsupportedOperationException();
			}

		};
		for (Duration busyPoll : List.of(Duration.ZERO, Duration.ofNanos(50_000), WakeOnDemandNioIoHandler.MAX_BUSY_POLL)) {
			WakeOnDemandNioIoHandler handler = (WakeOnDemandNioIoHandler) new WakeOnDemandEventLoopGroupProvider(1, busyPoll)
				.ioHandlerFactory()
				.newHandler(executor);
			try {
				assertThat(handler.busyPollNanos()).isEqualTo(busyPoll.toNanos());
			}
			finally {
				handler.destroy();
			}
		}
	}

	@Test
	void aNegativeOrTooLongBusyPollIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> WakeOnDemandNioIoHandler.newFactory(Duration.ofNanos(-1)))
			.withMessageContaining("must not be negative");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WakeOnDemandEventLoopGroupProvider(1, Duration.ofNanos(-1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> WakeOnDemandNioIoHandler.newFactory(Duration.ofMillis(1).plusNanos(1)))
			.withMessageContaining("at most");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WakeOnDemandEventLoopGroupProvider(1, Duration.ofDays(200_000)));
	}

	/**
	 * With a quiet period: Netty's loop calls {@code prepareToDestroy} only in a turn that began
	 * shut down, and a shutdown asked for later in a turn, without one, can end the loop first.
	 */
	@Test
	void shuttingTheLoopDownClosesTheChannelsStillRegistered() throws Exception {
		Channel channel = connect(new ChannelInboundHandlerAdapter());
		assertThat(channel.isActive()).isTrue();
		this.group.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS).await(30, TimeUnit.SECONDS);
		assertThat(channel.closeFuture().await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(channel.isOpen()).isFalse();
	}

	@Test
	void aClientConfiguredForCoalescingRunsItsCommandsPubSubAndReconnectsOnTheLoop() throws Exception {
		ClientResources resources = WriteCoalescing.configure(ClientResources.builder()).build();
		assertThat(resources.eventLoopGroupProvider()).isInstanceOf(WakeOnDemandEventLoopGroupProvider.class);
		RedisClient client = RedisClient.create(resources, RedisURI.create(this.redis.endpoint().uri()));
		EventLoopGroup loops;
		try (StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
				StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub(StringCodec.UTF8)) {
			Channel channel = ConnectionChannels.channelOf((RedisChannelHandler<?, ?>) connection);
			loops = (EventLoopGroup) channel.eventLoop().parent();
			assertThat(channel.eventLoop().submit(() -> Thread.currentThread().getName()).get(30, TimeUnit.SECONDS))
				.startsWith("slipcase-nioEventLoop");

			LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
			subscriber.addListener(new RedisPubSubAdapter<>() {

				@Override
				public void message(String channelName, String message) {
					messages.add(message);
				}

			});
			subscriber.sync().subscribe("wake-on-demand:news");
			connection.sync().publish("wake-on-demand:news", "first");
			assertThat(messages.poll(30, TimeUnit.SECONDS)).isEqualTo("first");

			long id = connection.sync().clientId();
			try (StatefulRedisConnection<String, String> killer = client.connect(StringCodec.UTF8)) {
				assertThat(killer.sync().clientKill(KillArgs.Builder.id(id))).isEqualTo(1);
			}
			connection.sync().set("wake-on-demand:after-reconnect", "yes");
			assertThat(connection.sync().get("wake-on-demand:after-reconnect")).isEqualTo("yes");
			Channel reconnected = ConnectionChannels.channelOf((RedisChannelHandler<?, ?>) connection);
			assertThat(reconnected).isNotSameAs(channel);
			assertThat(reconnected.eventLoop().parent()).isSameAs(loops);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
		assertThat(loops.terminationFuture().await(30, TimeUnit.SECONDS)).isTrue();
	}

	/**
	 * Hands the loop, busy until {@code release} is counted down, 100 tasks, then releases it and
	 * waits for them all to run.
	 * @return how many times the handing over woke the loop's selector
	 */
	private long selectorWakeupsWhileHandingOverTasksUntil(CountDownLatch release) throws Exception {
		WakeOnDemandNioIoHandler handler = this.handlers.get(0);
		long before = handler.selectorWakeups();
		List<Future<?>> tasks = new ArrayList<>();
		AtomicInteger ran = new AtomicInteger();
		for (int i = 0; i < 100; i++) {
			tasks.add(this.group.submit(ran::incrementAndGet));
		}
		release.countDown();
		for (Future<?> task : tasks) {
			task.get(30, TimeUnit.SECONDS);
		}
		assertThat(ran).hasValue(100);
		return handler.selectorWakeups() - before;
	}

	/** A channel on the test's loop connected to the server, with {@code handler} in its pipeline. */
	private Channel connect(ChannelHandler handler) throws InterruptedException {
		return new Bootstrap().group(this.group)
			.channel(NioSocketChannel.class)
			.handler(handler)
			.connect(this.redis.endpoint().host(), this.redis.endpoint().port())
			.sync()
			.channel();
	}

	/** The handler of {@code group}'s one loop: the last one made, as the group makes its loops' handlers when it is made. */
	private WakeOnDemandNioIoHandler handlerOf(MultiThreadIoEventLoopGroup group) throws Exception {
		group.submit(() -> null).get(30, TimeUnit.SECONDS);
		return this.handlers.get(this.handlers.size() - 1);
	}

	private IoHandlerFactory recordingFactory(Duration busyPoll) {
		return recording(WakeOnDemandNioIoHandler.newFactory(busyPoll));
	}

	private IoHandlerFactory recording(IoHandlerFactory factory) {
		return (executor) -> {
			IoHandler handler = factory.newHandler(executor);
			this.handlers.add((WakeOnDemandNioIoHandler) handler);
			return handler;
		};
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
