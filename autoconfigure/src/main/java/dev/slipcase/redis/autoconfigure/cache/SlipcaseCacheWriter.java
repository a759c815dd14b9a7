package dev.slipcase.redis.autoconfigure.cache;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import org.jspecify.annotations.Nullable;

import org.springframework.cache.support.NullValue;
import org.springframework.data.redis.cache.CacheStatistics;
import org.springframework.data.redis.cache.CacheStatisticsCollector;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * Spring Data's cache writer with two additions, for caches whose values Slipcase serializes:
 * it tells their value serializer which key it fetched a value from ({@link CacheKeyContext}), and
 * it repairs an entry that a cache cannot use where Spring Data's {@code RedisCache} would not:
 * <ul>
 * <li>{@code Cache.get(key, valueLoader)} ({@code @Cacheable(sync = true)}): an unusable entry is
 * loaded and replaced, instead of being returned as {@code null};</li>
 * <li>{@code putIfAbsent}: an unusable entry is replaced, as if it were absent.</li>
 * </ul>
 * Everything else, and every cache without a Slipcase serializer, goes to {@code delegate}
 * unchanged. Thread-safe.
 */
final class SlipcaseCacheWriter implements RedisCacheWriter {

	/** How {@code RedisCache} stores a cached {@code null}, which it reads without the value serializer. */
	private static final byte[] NULL_VALUE = RedisSerializer.java().serialize(NullValue.INSTANCE);

	private final RedisCacheWriter delegate;

	private final Map<String, CacheValueSerializer> serializers;

	private final @Nullable CacheValueSerializer defaultSerializer;

	private final boolean collectsStatistics;

	/**
	 * A writer.
	 * @param delegate writes to and reads from Redis
	 * @param serializers the value serializer of each configured cache, by cache name
	 * @param defaultSerializer the value serializer of every other cache, or {@code null}
	 */
	SlipcaseCacheWriter(RedisCacheWriter delegate, Map<String, CacheValueSerializer> serializers,
			@Nullable CacheValueSerializer defaultSerializer) {
		this(delegate, serializers, defaultSerializer, false);
	}

	private SlipcaseCacheWriter(RedisCacheWriter delegate, Map<String, CacheValueSerializer> serializers,
			@Nullable CacheValueSerializer defaultSerializer, boolean collectsStatistics) {
		this.delegate = delegate;
		this.serializers = Map.copyOf(serializers);
		this.defaultSerializer = defaultSerializer;
		this.collectsStatistics = collectsStatistics;
	}

	/** Whether it was given a statistics collector ({@code spring.cache.redis.enable-statistics}). */
	boolean collectsStatistics() {
		return this.collectsStatistics;
	}

	private @Nullable CacheValueSerializer serializer(String name) {
		CacheValueSerializer serializer = this.serializers.get(name);
		return (serializer != null) ? serializer : this.defaultSerializer;
	}

	@Override
	public byte @Nullable [] get(String name, byte[] key) {
		CacheKeyContext.forgetWritingKey();
		return fetched(key, this.delegate.get(name, key));
	}

	@Override
	public byte @Nullable [] get(String name, byte[] key, @Nullable Duration ttl) {
		CacheKeyContext.forgetWritingKey();
		return fetched(key, this.delegate.get(name, key, ttl));
	}

	@Override
	public byte[] get(String name, byte[] key, Supplier<byte[]> valueLoader, @Nullable Duration ttl,
			boolean timeToIdleEnabled) {
		CacheKeyContext.forgetWritingKey();
		Supplier<byte[]> loader = () -> {
			try {
				return valueLoader.get();
			}
			catch (SerializationException ex) {
				throw KeyedSerializationException.of(key, ex);
			}
		};
		CacheValueSerializer serializer = serializer(name);
		if (serializer == null) {
			return fetched(key, this.delegate.get(name, key, loader, ttl, timeToIdleEnabled));
		}
		byte[] existing = timeToIdleEnabled ? this.delegate.get(name, key, ttl) : this.delegate.get(name, key);
		if (existing != null && Arrays.equals(existing, NULL_VALUE)) {
			return existing;
		}
		if (existing != null) {
			Object value = serializer.read(key, existing);
			if (value != CacheValueSerializer.UNUSABLE) {
				CacheKeyContext.valueFetched(key, existing, value);
				return existing;
			}
		}
		byte[] loaded = loader.get();
		this.delegate.put(name, key, loaded, ttl);
		return fetched(key, loaded);
	}

	private static byte @Nullable [] fetched(byte[] key, byte @Nullable [] value) {
		CacheKeyContext.valueFetched(key, value, null);
		return value;
	}

	@Override
	public boolean supportsAsyncRetrieve() {
		return this.delegate.supportsAsyncRetrieve();
	}

	@Override
	public CompletableFuture<byte[]> retrieve(String name, byte[] key, @Nullable Duration ttl) {
		CacheKeyContext.forgetWritingKey();
		return this.delegate.retrieve(name, key, ttl).thenApply((value) -> fetched(key, value));
	}

	@Override
	public void put(String name, byte[] key, byte[] value, @Nullable Duration ttl) {
		CacheKeyContext.forgetWritingKey();
		this.delegate.put(name, key, value, ttl);
	}

	@Override
	public CompletableFuture<Void> store(String name, byte[] key, byte[] value, @Nullable Duration ttl) {
		CacheKeyContext.forgetWritingKey();
		return this.delegate.store(name, key, value, ttl);
	}

	@Override
	public byte @Nullable [] putIfAbsent(String name, byte[] key, byte[] value, @Nullable Duration ttl) {
		CacheKeyContext.forgetWritingKey();
		byte[] existing = this.delegate.putIfAbsent(name, key, value, ttl);
		CacheValueSerializer serializer = serializer(name);
		if (existing != null && serializer != null && !Arrays.equals(existing, NULL_VALUE)) {
			Object decoded = serializer.read(key, existing);
			if (decoded == CacheValueSerializer.UNUSABLE) {
				this.delegate.put(name, key, value, ttl);
				return null;
			}
			CacheKeyContext.valueFetched(key, existing, decoded);
			return existing;
		}
		return fetched(key, existing);
	}

	@Override
	public void evict(String name, byte[] key) {
		CacheKeyContext.forgetWritingKey();
		this.delegate.evict(name, key);
	}

	@Override
	public boolean evictIfPresent(String name, byte[] key) {
		CacheKeyContext.forgetWritingKey();
		return this.delegate.evictIfPresent(name, key);
	}

	@Override
	public void clear(String name, byte[] pattern) {
		CacheKeyContext.forgetWritingKey();
		this.delegate.clear(name, pattern);
	}

	@Override
	public boolean invalidate(String name, byte[] pattern) {
		CacheKeyContext.forgetWritingKey();
		return this.delegate.invalidate(name, pattern);
	}

	@Override
	public void clearStatistics(String name) {
		this.delegate.clearStatistics(name);
	}

	@Override
	public <T> T execute(Function<RedisConnection, T> callback) {
		return this.delegate.execute(callback);
	}

	@Override
	public RedisCacheWriter withStatisticsCollector(CacheStatisticsCollector cacheStatisticsCollector) {
		return new SlipcaseCacheWriter(this.delegate.withStatisticsCollector(cacheStatisticsCollector),
				this.serializers, this.defaultSerializer, !CacheStatisticsCollector.none().equals(cacheStatisticsCollector));
	}

	@Override
	public CacheStatistics getCacheStatistics(String cacheName) {
		return this.delegate.getCacheStatistics(cacheName);
	}

}
