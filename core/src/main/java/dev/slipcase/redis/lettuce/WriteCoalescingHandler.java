package dev.slipcase.redis.lettuce;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;

/**
 * Turns the flushes that one channel's commands ask for during one turn of its event loop into one
 * socket write: the first flush of a turn is put off to the end of that turn (Netty's
 * {@link SingleThreadEventLoop#executeAfterEventLoopIteration}, which runs once the loop has
 * drained the tasks queued so far), and every flush until then joins it. Lettuce writes and
 * flushes each command on its own: commands that concurrent callers issue while the loop is busy
 * with a write or with replies then leave together, and the server reads them in one read and
 * answers them in one write. A lone caller waits for no timer: its flush runs in the same turn
 * of the loop as its write. On an event loop that has no end-of-turn hook the flush is queued as
 * a task of its own, behind the writes already queued.
 * <p>
 * One instance per channel, added by {@link WriteCoalescing} nearest the socket (just above TLS
 * when the channel has it); it holds no buffer of its own: written messages stay in Netty's
 * outbound buffer, which the channel owns and releases, until the put-off flush or the channel's
 * close. A close or a removal of the handler flushes what is pending first. Used on the channel's
 * event loop only.
 */
public final class WriteCoalescingHandler extends ChannelOutboundHandlerAdapter {

	/** The handler's name in a channel pipeline. */
	public static final String NAME = "slipcaseWriteCoalescing";

	private final Runnable flushTask = this::flushPending;

	private ChannelHandlerContext context;

	private boolean flushPending;

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.context = ctx;
	}

	@Override
	public void flush(ChannelHandlerContext ctx) {
		if (this.flushPending) {
			return;
		}
		this.flushPending = true;
		EventLoop loop = ctx.channel().eventLoop();
		if (loop instanceof SingleThreadEventLoop singleThread) {
			singleThread.executeAfterEventLoopIteration(this.flushTask);
		}
		else {
			loop.execute(this.flushTask);
		}
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
		flushPending();
		super.close(ctx, promise);
	}

	@Override
	public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
		flushPending();
		super.disconnect(ctx, promise);
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		flushPending();
	}

	private void flushPending() {
		if (this.flushPending) {
			this.flushPending = false;
			this.context.flush();
		}
	}

}
