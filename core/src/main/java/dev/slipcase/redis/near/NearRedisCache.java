package dev.slipcase.redis.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.CommandChannel;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.jspecify.annotations.Nullable;

import org.springframework.cache.support.NullValue;
import org.springframework.data.redis.cache.RedisCache;

/**
 * A Spring Data {@link RedisCache} with a {@link NearCache} in front: reads are served from the
 * near tier while Redis' invalidations are trusted, and fetched from Redis (once for all concurrent
 * readers of a key) otherwise; writes, evictions and clears go to Redis and forget the local copy,
 * before and after, so that this instance reads its own writes; made with the tracking, a put
 * goes on its key's tracking connection instead and holds the value put (see
 * {@link #NearRedisCache(RedisCache, NearCache, NearCacheTracking)}). Values are held as
 * {@link HeldValues} says.
 * <p>
 * Created from a {@code RedisCache} (its name, writer and configuration) by
 * {@link NearCacheManager}. Local copies are found by the Redis key the cache writes, so the key
 * serializer must write UTF-8 (Spring Data's default); with any other, reads go to Redis.
 * Thread-safe; holds no buffer.
 */
public class NearRedisCache extends RedisCache {

	private static final String PROBE = "near:probe:\u00e9";

	private final NearCache near;

	private final HeldValues<Object> values = new HeldValues<>(this::serializeCacheValue, this::deserializeCacheValue);

	private final boolean utf8Keys;

	/** Where puts go when they bypass the cache's writer, or {@code null}: they never do. */
	private final @Nullable NearCacheTracking putsOn;

	/**
	 * A near cache over the same Redis entries as {@code cache}, whose writes all go through its
	 * writer.
	 * @param cache the Redis cache whose name, writer and configuration it takes
	 * @param near its local tier, tracked on {@link #keyPrefix()}
	 */
	public NearRedisCache(RedisCache cache, NearCache near) {
		this(cache, near, null);
	}

	/**
	 * A near cache over the same Redis entries as {@code cache}, whose puts, while {@code putsOn}
	 * trusts Redis' invalidations, go on the tracking connection of their key's server instead of
	 * through the cache's writer: Redis does not report them back there ({@code NOLOOP}), so the
	 * value put is held at once, instead of forgotten again when Redis reports the put. The writer
	 * is bypassed for them: only for a writer that neither locks nor counts statistics.
	 * @param cache the Redis cache whose name, writer and configuration it takes
	 * @param near its local tier, tracked on {@link #keyPrefix()}
	 * @param putsOn the tracking that keeps {@code near} correct, or {@code null}: every write
	 * through the writer
	 */
	public NearRedisCache(RedisCache cache, NearCache near, @Nullable NearCacheTracking putsOn) {
		super(cache.getName(), cache.getNativeCache(), cache.getCacheConfiguration());
		this.near = near;
		this.utf8Keys = Arrays.equals(serializeCacheKey(PROBE), PROBE.getBytes(StandardCharsets.UTF_8));
		this.putsOn = putsOn;
	}

	/** The local tier. */
	public NearCache near() {
		return this.near;
	}

	/** The prefix of every key this cache writes: what Redis must track for it. */
	public String keyPrefix() {
		return getCacheConfiguration().usePrefix() ? getCacheConfiguration().getKeyPrefixFor(getName()) : "";
	}

	private @Nullable String redisKey(Object key) {
		return this.utf8Keys ? createCacheKey(key) : null;
	}

	@Override
	protected @Nullable Object lookup(Object key) {
		String redisKey = redisKey(key);
		return (redisKey != null) ? this.values.readable(this.near.get(redisKey, () -> this.values.held(super.lookup(key))))
				: super.lookup(key);
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> @Nullable T get(Object key, Callable<T> valueLoader) {
		String redisKey = redisKey(key);
		if (redisKey == null) {
			return super.get(key, valueLoader);
		}
		Object stored = this.values
			.readable(this.near.get(redisKey, () -> this.values.held(storeValue(super.get(key, valueLoader)))));
		return (T) fromStoreValue(stored);
	}

	private @Nullable Object storeValue(@Nullable Object value) {
		return (value != null) ? value : (isAllowNullValues() ? NullValue.INSTANCE : null);
	}

	@Override
	public CompletableFuture<ValueWrapper> retrieve(Object key) {
		String redisKey = redisKey(key);
		if (redisKey == null) {
			return super.retrieve(key);
		}
		Supplier<CompletableFuture<@Nullable Object>> fetch = () -> super.retrieve(key)
			.thenApply((wrapper) -> (wrapper != null) ? this.values.held(storeValue(wrapper.get())) : null);
		return offEventLoopWhenMissed(
				this.near.getAsync(redisKey, fetch).thenApply((held) -> toValueWrapper(this.values.readable(held))));
	}

	/**
	 * {@code retrieved}, a miss completed off Netty's threads (its event loops): Spring's cache
	 * aspect calls a missed method, and then {@link #put} (which waits for Redis' acknowledgement
	 * on the tracking connection), on the thread that completes the miss, which would otherwise be
	 * the event loop Redis' reply came in on: blocked there, it may be the very loop that the
	 * acknowledgement must come in on.
	 */
	private static CompletableFuture<ValueWrapper> offEventLoopWhenMissed(CompletableFuture<ValueWrapper> retrieved) {
		CompletableFuture<ValueWrapper> result = new CompletableFuture<>();
		retrieved.whenComplete((found, failure) -> {
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else if (found == null && Thread.currentThread() instanceof FastThreadLocalThread) {
				ForkJoinPool.commonPool().execute(() -> result.complete(null));
			}
			else {
				result.complete(found);
			}
		});
		return result;
	}

	@Override
	public void put(Object key, @Nullable Object value) {
		String redisKey = redisKey(key);
		NearCacheTracking putsOn = this.putsOn;
		if (redisKey != null && value != null && putsOn != null) {
			KeyInvalidations tracking = putsOn.trackingOf(redisKey);
			if (tracking != null && putUnreported(putsOn, tracking, key, redisKey, value)) {
				return;
			}
		}
		writing(key, () -> super.put(key, value));
	}

	/**
	 * Puts as {@code RedisCache} does, but on the tracking connection, and holds the value put once
	 * Redis acknowledged it, unless something happened to the key meanwhile
	 * ({@link NearCache#written}).
	 * @return whether it was put; {@code false} when it was not applied (Redis refused it, on a
	 * moved slot, say, or it never left: the tracking connection was down or closing), for the
	 * caller to put through the writer instead
	 */
	private boolean putUnreported(NearCacheTracking putsOn, KeyInvalidations tracking, Object key, String redisKey,
			Object value) {
		try {
			return putOn(tracking, key, redisKey, value);
		}
		finally {
			// what Redis does not report, to another cache over the same keys
			putsOn.writtenUnreported(redisKey, this.near);
		}
	}

	private boolean putOn(KeyInvalidations tracking, Object key, String redisKey, Object value) {
		byte[] binaryKey = serializeCacheKey(redisKey);
		byte[] binaryValue = serializeCacheValue(preProcessCacheValue(value));
		Duration ttl = getCacheConfiguration().getTtlFunction().getTimeToLive(key, value);
		NearCache.Write write = this.near.writing(redisKey);
		boolean answered = false;
		boolean held = false;
		try {
			boolean applied = CommandChannel.await(tracking.write(binaryKey, binaryValue, ttl), tracking.timeout(), "put",
					redisKey);
			answered = true;
			if (!applied) {
				return false;
			}
			this.near.written(write, this.values.heldAsWritten(value, binaryValue));
			held = true;
			return true;
		}
		finally {
			if (!answered) {
				// timed out, interrupted, the connection dropped: the SET may have run, or may
				// still run, unreported
				tracking.writeOutcomeUnknown();
			}
			if (!held) {
				this.near.forget(redisKey);
			}
		}
	}

	@Override
	public @Nullable ValueWrapper putIfAbsent(Object key, @Nullable Object value) {
		return written(key, () -> super.putIfAbsent(key, value));
	}

	@Override
	public void evict(Object key) {
		writing(key, () -> super.evict(key));
	}

	@Override
	public boolean evictIfPresent(Object key) {
		return written(key, () -> super.evictIfPresent(key));
	}

	@Override
	public void clear() {
		this.near.clear();
		super.clear();
		this.near.clear();
	}

	@Override
	public void clear(String keyPattern) {
		this.near.clear();
		super.clear(keyPattern);
		this.near.clear();
	}

	@Override
	public boolean invalidate() {
		this.near.clear();
		boolean invalidated = super.invalidate();
		this.near.clear();
		return invalidated;
	}

	private void writing(Object key, Runnable write) {
		written(key, () -> {
			write.run();
			return null;
		});
	}

	/**
	 * Forgets the local copy before the write, so that no fetch under way stores what it read, and
	 * after, so that this instance reads its own write even before Redis' invalidation arrives.
	 */
	private <T> T written(Object key, Supplier<T> write) {
		String redisKey = redisKey(key);
		if (redisKey == null) {
			return write.get();
		}
		this.near.forget(redisKey);
		try {
			return write.get();
		}
		finally {
			this.near.forget(redisKey);
		}
	}

}
