package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.cache.CacheStatistics;
import org.springframework.data.redis.cache.CacheStatisticsCollector;
import org.springframework.data.redis.cache.RedisCacheWriter;

/**
 * The writer a {@link NearCacheManager} hands its {@code RedisCacheManager} superclass, which
 * needs one to be constructed: every cache it serves comes from its target manager, with the
 * target's writer, so this one is never asked to do anything, and fails if it is.
 */
final class UnusedCacheWriter implements RedisCacheWriter {

	static final UnusedCacheWriter INSTANCE = new UnusedCacheWriter();

	private UnusedCacheWriter() {
	}

	private static UnsupportedOperationException unused() {
		return new UnsupportedOperationException("a NearCacheManager's caches write through its target manager");
	}

	@Override
	public byte[] get(String name, byte[] key) {
		throw unused();
	}

	@Override
	public CompletableFuture<byte[]> retrieve(String name, byte[] key, Duration ttl) {
		throw unused();
	}

	@Override
	public void put(String name, byte[] key, byte[] value, Duration ttl) {
		throw unused();
	}

	@Override
	public CompletableFuture<Void> store(String name, byte[] key, byte[] value, Duration ttl) {
		throw unused();
	}

	@Override
	public byte[] putIfAbsent(String name, byte[] key, byte[] value, Duration ttl) {
		throw unused();
	}

	@Override
	public void evict(String name, byte[] key) {
		throw unused();
	}

	@Override
	public void clear(String name, byte[] pattern) {
		throw unused();
	}

	@Override
	public void clearStatistics(String name) {
		throw unused();
	}

	@Override
	public RedisCacheWriter withStatisticsCollector(CacheStatisticsCollector collector) {
		throw unused();
	}

	@Override
	public CacheStatistics getCacheStatistics(String cacheName) {
		throw unused();
	}

}
