package dev.slipcase.redis.lettuce;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.lettuce.core.Delegating;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.netty.channel.Channel;
import org.jspecify.annotations.Nullable;

/**
 * The Netty channel under a Lettuce connection, which Lettuce keeps in its endpoint's protected
 * {@code channel} field and does not expose: read through a {@link VarHandle}, for
 * {@link WriteCoalescing} on clients whose resources do not add it. When a Lettuce version has no
 * such field, {@link #isSupported()} is {@code false} and those clients are left as they are.
 */
final class ConnectionChannels {

	private static final @Nullable VarHandle CHANNEL = channelField();

	private ConnectionChannels() {
	}

	static boolean isSupported() {
		return CHANNEL != null;
	}

	/**
	 * The channel {@code connection} writes to now, or {@code null} when it has none (not
	 * connected, or a cluster connection, whose channels are its nodes' connections').
	 */
	static @Nullable Channel channelOf(RedisChannelHandler<?, ?> connection) {
		RedisChannelWriter writer = innermostWriter(connection);
		if (CHANNEL == null || !(writer instanceof DefaultEndpoint endpoint)) {
			return null;
		}
		return (Channel) CHANNEL.getVolatile(endpoint);
	}

	/** The writer under whatever writers {@code connection}'s writer delegates to (a listener's, say). */
	static RedisChannelWriter innermostWriter(RedisChannelHandler<?, ?> connection) {
		RedisChannelWriter writer = connection.getChannelWriter();
		while (writer instanceof Delegating<?> delegating && delegating.getDelegate() instanceof RedisChannelWriter inner) {
			writer = inner;
		}
		return writer;
	}

	private static @Nullable VarHandle channelField() {
		try {
			return MethodHandles.privateLookupIn(DefaultEndpoint.class, MethodHandles.lookup())
				.findVarHandle(DefaultEndpoint.class, "channel", Channel.class);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
