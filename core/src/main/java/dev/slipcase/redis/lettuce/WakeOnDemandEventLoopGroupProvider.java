package dev.slipcase.redis.lettuce;

import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoopGroup;
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
 * they are shut down. Thread-safe.
 */
public final class WakeOnDemandEventLoopGroupProvider extends DefaultEventLoopGroupProvider {

	/** A provider of {@code ioThreads} threads per group. */
	public WakeOnDemandEventLoopGroupProvider(int ioThreads) {
		super(ioThreads);
	}

	@Override
	protected <T extends EventLoopGroup> EventExecutorGroup doCreateEventLoopGroup(Class<T> type, int numberOfThreads,
			io.lettuce.core.resource.ThreadFactoryProvider threadFactoryProvider) {
		if (Transports.socketChannelClass() == NioSocketChannel.class
				&& MultiThreadIoEventLoopGroup.class.isAssignableFrom(type)) {
			return new MultiThreadIoEventLoopGroup(numberOfThreads,
					threadFactoryProvider.getThreadFactory("slipcase-nioEventLoop"), WakeOnDemandNioIoHandler.newFactory());
		}
		return super.doCreateEventLoopGroup(type, numberOfThreads, threadFactoryProvider);
	}

}
