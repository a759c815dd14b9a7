package dev.slipcase.redis.template;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.CommandStep;
import dev.slipcase.redis.near.HeldValues;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * The near tier of a {@link ValueTemplate} view: reads of a key go through a {@link NearCache}
 * (served locally while Redis' invalidations are trusted, fetched once for concurrent readers
 * otherwise), and writes forget the keys they change, before they are sent and once they
 * completed, so that this instance reads its own writes. Values are held as {@link HeldValues}
 * says, encoded with the view's format. Holds no pooled buffer. Thread-safe.
 *
 * @param <V> the type of values
 */
final class NearValues<V> {

	private final NearCache cache;

	private final HeldValues<V> values;

	NearValues(NearCache cache, ValueFormat<V> format) {
		this.cache = cache;
		this.values = new HeldValues<>((value) -> encode(format, value),
				(bytes) -> format.decode(Unpooled.wrappedBuffer(bytes)));
	}

	/** The value of {@code key}: held, or read by {@code fetch} on the calling thread. */
	@Nullable V get(String key, Supplier<@Nullable V> fetch) {
		return this.values.readable(this.cache.get(key, () -> this.values.held(fetch.get())));
	}

	/** The value of {@code key}: held, or read by {@code fetch}. */
	CompletableFuture<@Nullable V> getAsync(String key, Supplier<CompletableFuture<@Nullable V>> fetch) {
		return this.cache.getAsync(key, () -> fetch.get().thenApply(this.values::held)).thenApply(this.values::readable);
	}

	/**
	 * Forgets {@code keys} now, and gives the step that forgets them again before each command
	 * changing them completes, so that whoever waits for the command reads the write.
	 */
	CommandStep forgetting(Collection<String> keys) {
		keys.forEach(this.cache::forget);
		return new Forgetting(this.cache, keys);
	}

	/** Forgets {@code key}: a write of this instance is about to change it, or did. */
	void forget(String key) {
		this.cache.forget(key);
	}

	/** Forgets the keys a command changes before it completes. */
	private record Forgetting(NearCache cache, Collection<String> keys) implements CommandStep {

		@Override
		public void beforeCompletion(@Nullable Throwable failure) {
			this.keys.forEach(this.cache::forget);
		}

	}

	private static <V> byte[] encode(ValueFormat<V> format, V value) {
		ByteBuf out = Unpooled.buffer(Math.max(16, format.estimateSize(value)));
		try {
			format.encode(value, out);
			return ByteBufUtil.getBytes(out);
		}
		finally {
			out.release();
		}
	}

}
