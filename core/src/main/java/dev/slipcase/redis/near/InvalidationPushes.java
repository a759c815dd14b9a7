package dev.slipcase.redis.near;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import org.jspecify.annotations.Nullable;

/**
 * Reads Redis' invalidations on RESP3, where they arrive as {@code invalidate} push messages on
 * the tracking connection itself: an array of keys, or a null for a flush, handed to the
 * {@link KeyInvalidations.Listener} on the connection's event loop. The RESP2 twin is
 * {@link InvalidationMessages}. Holds no buffer (keys are copied to strings); stateless.
 */
final class InvalidationPushes implements PushListener {

	private final KeyInvalidations.Listener receiver;

	InvalidationPushes(KeyInvalidations.Listener receiver) {
		this.receiver = receiver;
	}

	@Override
	public void onPushMessage(PushMessage message) {
		if (!"invalidate".equals(message.getType())) {
			return;
		}
		List<Object> content = message.getContent(InvalidationPushes::text);
		Object keys = (content.size() > 1) ? content.get(1) : null;
		if (keys == null) {
			this.receiver.flushed();
			return;
		}
		List<String> changed = new ArrayList<>();
		if (keys instanceof List<?> list) {
			for (Object key : list) {
				if (key != null) {
					changed.add(key.toString());
				}
			}
		}
		if (!changed.isEmpty()) {
			this.receiver.invalidated(changed);
		}
	}

	private static @Nullable Object text(@Nullable ByteBuffer bytes) {
		return (bytes != null) ? StandardCharsets.UTF_8.decode(bytes).toString() : null;
	}

}
