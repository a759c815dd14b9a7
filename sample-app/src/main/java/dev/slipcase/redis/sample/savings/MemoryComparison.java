package dev.slipcase.redis.sample.savings;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * Loads N counters (logical keys {@code demo:0} .. {@code demo:N-1}) as plain string keys, then
 * into the sharded namespace {@code memory-demo}, and measures each on the running Redis as the
 * growth of {@code INFO memory}'s {@code used_memory}. Both sets are deleted before and after,
 * so runs do not add up. One comparison at a time.
 */
@Service
public class MemoryComparison {

	static final String PLAIN_PREFIX = "demo:";

	private static final int BATCH = 1000;

	private final StringRedisTemplate redis;

	private final ShardedTemplate<Long> sharded;

	private final RedisMemory memory;

	private final MemoryComparisonProperties properties;

	MemoryComparison(StringRedisTemplate redis, @Qualifier("memoryDemoShardedTemplate") ShardedTemplate<Long> sharded,
			RedisMemory memory, MemoryComparisonProperties properties) {
		this.redis = redis;
		this.sharded = sharded;
		this.memory = memory;
		this.properties = properties;
	}

	/**
	 * Runs the comparison with {@code keys} counters.
	 * @param keys how many keys, 1 to {@code sample.memory-comparison.max-keys}; {@code null} for the default
	 * @throws IllegalArgumentException when {@code keys} is out of range
	 */
	public synchronized Result compare(@Nullable Integer keys) {
		int n = (keys != null) ? keys : this.properties.defaultKeys();
		if (n < 1 || n > this.properties.maxKeys()) {
			throw new IllegalArgumentException(
					"keys must be between 1 and " + this.properties.maxKeys() + ", was " + n);
		}
		clear();
		// warm up: the first sharded write loads its script into the server's Lua cache
		this.sharded.set(PLAIN_PREFIX + n, 0L);
		this.sharded.delete(PLAIN_PREFIX + n);
		try {
			long before = this.memory.usedMemory();
			loadPlain(n);
			long plain = this.memory.usedMemory() - before;
			before = this.memory.usedMemory();
			loadSharded(n);
			long sharded = this.memory.usedMemory() - before;
			BucketMemoryReport buckets = this.sharded.memoryReport(Integer.MAX_VALUE);
			return new Result(n, this.memory.version(), new Cost(plain, Savings.round((double) plain / n)),
					new Cost(sharded, Savings.round((double) sharded / n)),
					(sharded > 0) ? Savings.round((double) plain / sharded) : 0,
					buckets.sampledBuckets(), buckets.flippedBuckets());
		}
		finally {
			clear();
		}
	}

	private void loadPlain(int n) {
		Map<String, String> batch = new LinkedHashMap<>();
		for (int i = 0; i < n; i++) {
			batch.put(PLAIN_PREFIX + i, Long.toString(value(i)));
			if (batch.size() == BATCH || i == n - 1) {
				this.redis.opsForValue().multiSet(batch);
				batch.clear();
			}
		}
	}

	private void loadSharded(int n) {
		Map<String, Long> batch = new LinkedHashMap<>();
		for (int i = 0; i < n; i++) {
			batch.put(PLAIN_PREFIX + i, value(i));
			if (batch.size() == BATCH || i == n - 1) {
				this.sharded.multiSet(batch);
				batch.clear();
			}
		}
	}

	private static long value(int i) {
		return (i * 7919L) % 10_000;
	}

	private void clear() {
		this.memory.deleteMatching(PLAIN_PREFIX + "*");
		ShardedNamespace namespace = this.sharded.namespace();
		// the namespace's buckets and overflow keys (~sc:{md:n:...}, ~sc:{md:h:...}), never its layout key
		this.memory.deleteMatching(namespace.bucketPrefix() + "{" + namespace.alias() + ":n:*");
		this.memory.deleteMatching(namespace.bucketPrefix() + "{" + namespace.alias() + ":h:*");
	}

	/**
	 * One comparison.
	 *
	 * @param keys how many keys were loaded each way
	 * @param redisVersion the server's version
	 * @param plain what they cost as plain keys
	 * @param sharded what they cost in the sharded namespace
	 * @param plainToSharded how many times more the plain keys cost
	 * @param buckets the number of buckets holding them
	 * @param flippedBuckets buckets that left the compact encoding (should be 0)
	 */
	public record Result(int keys, String redisVersion, Cost plain, Cost sharded, double plainToSharded, int buckets,
			int flippedBuckets) {

	}

	/**
	 * What a set of keys cost.
	 *
	 * @param usedMemory growth of {@code used_memory}, in bytes
	 * @param bytesPerKey {@code usedMemory} divided by the number of keys
	 */
	public record Cost(long usedMemory, double bytesPerKey) {

	}

}
