package dev.slipcase.redis.lettuce;

import java.time.Duration;

import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * Lettuce's event loop groups, with {@link WakeOnDemandNioIoHandler} under the NIO ones: where
 * Lettuce connects over NIO (no native transport on the class path), its loops are
 * {@code MultiThreadIoEventLoopGroup}s of that handler, with threads named
 * {@code slipcase-nioEventLoop-…}; every other group (native transports, the computation
 * executors) is Lettuce's own. {@link WriteCoalescing#configure} sets it on a
 * {@code ClientResources.Builder}.
 * <p>
 * Lettuce counts the clients that use each group: the last one to shut down shuts the group down,
 * and a client made later gets a new one. Resources built with it do not shut the provider down
 * themselves (Lettuce treats a provider it was given as shared), so a group whose clients are
 * never shut down lives as long as the JVM, as it would on the resources' own provider until
 * they are shut down. Holds no buffers. Thread-safe.
 */
public final class WakeOnDemandEventLoopGroupProvider extends DefaultEventLoopGroupProvider {

	private final Duration busyPoll;

	/** A provider of {@code ioThreads} threads per group, whose loops poll for up to the default while before they block. */
	public WakeOnDemandEventLoopGroupProvider(int ioThreads) {
		this(ioThreads, WakeOnDemandNioIoHandler.DEFAULT_BUSY_POLL);
	}

	/**
	 * A provider of {@code ioThreads} threads per group.
	 * @param busyPoll the longest a loop that ran out of work polls before it blocks (see
	 * {@link WakeOnDemandNioIoHandler}), at most {@link WakeOnDemandNioIoHandler#MAX_BUSY_POLL};
	 * {@link Duration#ZERO} to block at once
	 * @throws IllegalArgumentException for a negative busy poll or one longer than the maximum
	 */
	public WakeOnDemandEventLoopGroupProvider(int ioThreads, Duration busyPoll) {
		super(ioThreads);
		WakeOnDemandNioIoHandler.checkBusyPoll(busyPoll); // here rather than at the first connect
		this.busyPoll = busyPoll;
	}

	/** How long a loop that ran out of work polls before it blocks. */
	public Duration busyPoll() {
		return this.busyPoll;
	}

	/** The factory of the handlers under this provider's NIO loops. */
	IoHandlerFactory ioHandlerFactory() {
		return WakeOnDemandNioIoHandler.newFactory(this.busyPoll);
	}

	@Override
	protected <T extends EventLoopGroup> EventExecutorGroup doCreateEventLoopGroup(Class<T> type, int numberOfThreads,
			io.lettuce.core.resource.ThreadFactoryProvider threadFactoryProvider) {
		if (Transports.socketChannelClass() == NioSocketChannel.class
				&& MultiThreadIoEventLoopGroup.class.isAssignableFrom(type)) {
			return new MultiThreadIoEventLoopGroup(numberOfThreads,
					threadFactoryProvider.getThreadFactory("slipcase-nioEventLoop"), ioHandlerFactory());
		}
		return super.doCreateEventLoopGroup(type, numberOfThreads, threadFactoryProvider);
	}

}
