package dev.slipcase.redis.near;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import org.jspecify.annotations.Nullable;

/**
 * Reads Redis' invalidations on RESP2, where they arrive on the pub/sub connection tracking
 * redirects to, as messages on {@value #CHANNEL} whose payload is an array of keys, or a null for a
 * flush. Lettuce's pub/sub output keeps one value per message and so only the array's last key;
 * as its codec, this sees every key it decodes as a value, on the connection's event loop, and
 * hands them to the listener when that message is delivered, on the same thread, right after
 * its last key was decoded. Messages on a heartbeat channel of its own go to a heartbeat
 * consumer. Confined to the connection's event loop; holds no buffer (keys are copied to strings
 * as they are decoded).
 */
final class InvalidationMessages extends RedisPubSubAdapter<String, String> implements RedisCodec<String, String> {

	/** The channel of Redis' invalidation messages for RESP2 clients. */
	static final String CHANNEL = "__redis__:invalidate";

	private final KeyInvalidations.Listener receiver;

	private final String heartbeatChannel;

	/** Told of each message on {@link #heartbeatChannel}; set before it is subscribed to. */
	private volatile Consumer<String> heartbeats = (message) -> {
	};

	/** The keys of the message being decoded. */
	private List<String> keys = new ArrayList<>();

	InvalidationMessages(KeyInvalidations.Listener receiver, String heartbeatChannel) {
		this.receiver = receiver;
		this.heartbeatChannel = heartbeatChannel;
	}

	/** Where the messages on the heartbeat channel go from now on. */
	void heartbeats(Consumer<String> heartbeats) {
		this.heartbeats = heartbeats;
	}

	@Override
	public String decodeKey(ByteBuffer bytes) {
		return StringCodec.UTF8.decodeKey(bytes);
	}

	@Override
	public String decodeValue(ByteBuffer bytes) {
		String key = StringCodec.UTF8.decodeValue(bytes);
		this.keys.add(key);
		return key;
	}

	@Override
	public ByteBuffer encodeKey(String key) {
		return StringCodec.UTF8.encodeKey(key);
	}

	@Override
	public ByteBuffer encodeValue(String value) {
		return StringCodec.UTF8.encodeValue(value);
	}

	@Override
	public void message(String channel, @Nullable String message) {
		List<String> changed = this.keys;
		this.keys = new ArrayList<>();
		if (this.heartbeatChannel.equals(channel) && message != null) {
			this.heartbeats.accept(message);
			return;
		}
		if (!CHANNEL.equals(channel)) {
			return;
		}
		if (changed.isEmpty() && message != null) {
			changed.add(message); // a codec Lettuce did not call per key: its one value is the key
		}
		if (changed.isEmpty()) {
			this.receiver.flushed();
		}
		else {
			this.receiver.invalidated(changed);
		}
	}

}
