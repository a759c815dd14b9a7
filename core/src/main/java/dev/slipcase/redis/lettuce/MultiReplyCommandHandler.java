package dev.slipcase.redis.lettuce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.DecoratedCommand;
import io.lettuce.core.protocol.Endpoint;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import org.jspecify.annotations.Nullable;

/**
 * Lettuce's {@link CommandHandler}, except that a {@link MultiReplyCommand} (a {@link BlockCommand}
 * or a {@link BatchCommand}) stays at the head of the stack until it has read a reply for every
 * command it stands for ({@link #canComplete}), and is told it is written through such a handler
 * ({@link MultiReplyCommand#accept()}): one that reaches a stock handler writes {@code PING} alone.
 * Put in place of the stock handler by {@link #install}, with the stock handler's own options and
 * resources, before the channel is registered. Holds no buffer of its own beyond Lettuce's.
 */
final class MultiReplyCommandHandler extends CommandHandler {

	private static final @Nullable VarHandle OPTIONS = field("clientOptions", ClientOptions.class);

	private static final @Nullable VarHandle RESOURCES = field("clientResources", ClientResources.class);

	private MultiReplyCommandHandler(ClientOptions clientOptions, ClientResources clientResources, Endpoint endpoint) {
		super(clientOptions, clientResources, endpoint);
	}

	/**
	 * Replaces the stock {@link CommandHandler} of a channel Lettuce has just initialized, from a
	 * {@code NettyCustomizer}'s {@code afterChannelInitialized}: that runs before
	 * {@code channelRegistered} reaches the handlers, so the stock one holds no command, read buffer
	 * or state yet. A subclass ({@code PubSubCommandHandler}, say) is left as it is, and so is every
	 * handler where Lettuce's fields cannot be read.
	 * @return whether the channel has this handler now
	 */
	static boolean install(Channel channel) {
		if (OPTIONS == null || RESOURCES == null) {
			return false;
		}
		ChannelPipeline pipeline = channel.pipeline();
		ChannelHandlerContext context = pipeline.context(CommandHandler.class);
		if (context == null) {
			return false;
		}
		ChannelHandler handler = context.handler();
		if (handler instanceof MultiReplyCommandHandler) {
			return true;
		}
		if (handler.getClass() != CommandHandler.class) {
			return false; // PubSubCommandHandler, or a subclass of someone else's: left alone
		}
		CommandHandler stock = (CommandHandler) handler;
		if (!stock.getStack().isEmpty() || stock.isClosed()) {
			return false;
		}
		ClientOptions options = (ClientOptions) OPTIONS.get(stock);
		ClientResources resources = (ClientResources) RESOURCES.get(stock);
		pipeline.replace(stock, context.name(), new MultiReplyCommandHandler(options, resources, stock.getEndpoint()));
		return true;
	}

	/**
	 * Whether {@code connection}'s current channel has this handler. A stale answer is safe: a
	 * {@link BlockCommand} that reaches a stock handler sends its block another way.
	 */
	static boolean isInstalledOn(StatefulConnection<?, ?> connection) {
		if (!(connection instanceof RedisChannelHandler<?, ?> handler)) {
			return false;
		}
		Channel channel = ConnectionChannels.channelOf(handler);
		return channel != null && channel.pipeline().get(CommandHandler.class) instanceof MultiReplyCommandHandler;
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
		if (msg instanceof RedisCommand<?, ?, ?> command) {
			MultiReplyCommand<?, ?, ?> multi = multiReplyOf(command);
			if (multi != null) {
				multi.accept();
			}
		}
		else if (msg instanceof Collection<?> commands) {
			for (Object command : commands) {
				MultiReplyCommand<?, ?, ?> multi = (command instanceof RedisCommand<?, ?, ?> c) ? multiReplyOf(c) : null;
				if (multi != null) {
					multi.accept();
				}
			}
		}
		super.write(ctx, msg, promise);
	}

	/** A multi-reply command stays at the head of the stack until its last reply. */
	@Override
	protected boolean canComplete(RedisCommand<?, ?, ?> command) {
		MultiReplyCommand<?, ?, ?> multi = multiReplyOf(command);
		return multi == null || multi.hasAllReplies();
	}

	private static @Nullable MultiReplyCommand<?, ?, ?> multiReplyOf(RedisCommand<?, ?, ?> command) {
		if (command instanceof MultiReplyCommand<?, ?, ?> multi) {
			return multi;
		}
		if (command instanceof DecoratedCommand<?, ?, ?>) {
			return CommandWrapper.unwrap(command, MultiReplyCommand.class);
		}
		return null;
	}

	private static @Nullable VarHandle field(String name, Class<?> type) {
		try {
			return MethodHandles.privateLookupIn(CommandHandler.class, MethodHandles.lookup())
				.findVarHandle(CommandHandler.class, name, type);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
