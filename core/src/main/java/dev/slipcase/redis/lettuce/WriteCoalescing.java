package dev.slipcase.redis.lettuce;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import org.jspecify.annotations.Nullable;

/**
 * Write coalescing for the connections of a Lettuce client (see {@link WriteCoalescingHandler}):
 * the public entry point. Slipcase's Spring Boot starter applies it to Boot's
 * {@code ClientResources}; an application that builds its own passes them through
 * {@link #configure}:
 * <pre class="code">
 * ClientResources resources = WriteCoalescing.configure(ClientResources.builder()).build();
 * RedisClient client = RedisClient.create(resources, "redis://localhost");
 * // or: LettuceClientConfiguration.builder().clientResources(resources)
 * </pre>
 * Each channel such a client opens (and opens again after a reconnect) gets its own handler, and a
 * {@link MultiReplyCommandHandler} in place of Lettuce's, so that a {@link TransactionLane} block
 * goes out as one command.
 * Slipcase's templates also {@link #applyTo apply} it to a client they are handed that was built
 * without it, unless its resources were built with {@link #disable}. Thread-safe.
 */
public final class WriteCoalescing {

	private static final Set<AbstractRedisClient> appliedClients = Collections
		.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

	private WriteCoalescing() {
	}

	/**
	 * Sets a {@link NettyCustomizer} on {@code builder} that adds write coalescing to every channel,
	 * and a {@link WakeOnDemandEventLoopGroupProvider} of Lettuce's default number of I/O threads,
	 * whose NIO event loops wake their selector only when they are about to block in it, and poll
	 * for up to the default 100 µs before they block. Each
	 * replaces one set earlier: to keep a customizer of your own, pass it to
	 * {@link #nettyCustomizer(NettyCustomizer)} and set the result instead; to keep your own event
	 * loops, set them after this call; for another number of I/O threads, set
	 * {@code new WakeOnDemandEventLoopGroupProvider(n)} after it (with a provider set, Lettuce
	 * ignores the builder's {@code ioThreadPoolSize} and {@code threadFactoryProvider} for its I/O
	 * threads).
	 * @return {@code builder}
	 */
	public static ClientResources.Builder configure(ClientResources.Builder builder) {
		return configure(builder, WakeOnDemandNioIoHandler.DEFAULT_BUSY_POLL);
	}

	/**
	 * As {@link #configure(ClientResources.Builder)}, with event loops that poll for up to
	 * {@code busyPoll} before they block (see {@link WakeOnDemandNioIoHandler}).
	 * @param busyPoll the longest a loop that ran out of work polls before it blocks, at most
	 * {@link WakeOnDemandNioIoHandler#MAX_BUSY_POLL}; {@link Duration#ZERO} to block at once
	 * @return {@code builder}
	 * @throws IllegalArgumentException for a negative busy poll or one longer than the maximum
	 */
	public static ClientResources.Builder configure(ClientResources.Builder builder, Duration busyPoll) {
		return builder.nettyCustomizer(nettyCustomizer(null))
			.eventLoopGroupProvider(
					new WakeOnDemandEventLoopGroupProvider(DefaultClientResources.DEFAULT_IO_THREADS, busyPoll));
	}

	/**
	 * Marks the resources {@code builder} builds as ones whose clients do not coalesce writes, so
	 * that Slipcase's templates leave them as they are (a {@link NettyCustomizer} that changes
	 * nothing, replacing one set earlier).
	 * @return {@code builder}
	 */
	public static ClientResources.Builder disable(ClientResources.Builder builder) {
		return builder.nettyCustomizer(new Disabled());
	}

	/**
	 * A {@link NettyCustomizer} that adds write coalescing to every channel after {@code delegate}
	 * (if any) has customized it.
	 * @param delegate a customizer of the application's own, or {@code null}
	 */
	public static NettyCustomizer nettyCustomizer(@Nullable NettyCustomizer delegate) {
		return new Customizer(delegate);
	}

	/**
	 * Adds write coalescing to every channel {@code client} connects from now on (reconnects
	 * included), when its resources do not add it already and were not built with
	 * {@link #disable}. Connections open before the call are left as they are. Applying it twice
	 * to a client does nothing more.
	 * @return whether the client's connections coalesce their writes from now on
	 */
	public static boolean applyTo(AbstractRedisClient client) {
		NettyCustomizer customizer = client.getResources().nettyCustomizer();
		if (customizer instanceof Customizer) {
			return true;
		}
		if (customizer instanceof Disabled || !ConnectionChannels.isSupported()) {
			return false;
		}
		if (appliedClients.add(client)) {
			client.addListener(new ChannelInstaller());
		}
		return true;
	}

	/** Whether the clients of {@code resources} coalesce their writes on every channel. */
	public static boolean isConfigured(ClientResources resources) {
		return resources.nettyCustomizer() instanceof Customizer;
	}

	/** Whether {@code resources} were built with {@link #disable}. */
	public static boolean isDisabled(ClientResources resources) {
		return resources.nettyCustomizer() instanceof Disabled;
	}

	/** Whether {@code channel} coalesces its writes. */
	public static boolean isInstalled(Channel channel) {
		return channel.pipeline().get(WriteCoalescingHandler.NAME) != null;
	}

	/**
	 * Adds a {@link WriteCoalescingHandler} to {@code channel} if it has none: above TLS when the
	 * channel has it (so that one flush makes one TLS record), else nearest the socket.
	 */
	static void install(Channel channel) {
		ChannelPipeline pipeline = channel.pipeline();
		synchronized (pipeline) {
			if (isInstalled(channel)) {
				return;
			}
			SslHandler ssl = pipeline.get(SslHandler.class);
			if (ssl != null) {
				pipeline.addAfter(pipeline.context(ssl).name(), WriteCoalescingHandler.NAME, new WriteCoalescingHandler());
			}
			else {
				pipeline.addFirst(WriteCoalescingHandler.NAME, new WriteCoalescingHandler());
			}
		}
	}

	private record Customizer(@Nullable NettyCustomizer delegate) implements NettyCustomizer {

		@Override
		public void afterBootstrapInitialized(Bootstrap bootstrap) {
			if (this.delegate != null) {
				this.delegate.afterBootstrapInitialized(bootstrap);
			}
		}

		@Override
		public void afterChannelInitialized(Channel channel) {
			if (this.delegate != null) {
				this.delegate.afterChannelInitialized(channel);
			}
			install(channel);
			MultiReplyCommandHandler.install(channel);
		}

	}

	private static final class Disabled implements NettyCustomizer {

	}

	/** Installs the handler on each channel a client's connection becomes active on. */
	private static final class ChannelInstaller implements RedisConnectionStateListener {

		@Override
		public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
			Channel channel = ConnectionChannels.channelOf(connection);
			if (channel != null) {
				install(channel);
			}
		}

	}

}
