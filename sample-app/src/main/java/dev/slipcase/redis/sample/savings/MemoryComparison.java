package dev.slipcase.redis.sample.savings;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import dev.slipcase.redis.sample.web.ConflictException;
import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * Loads N counters (logical keys {@code demo:0} .. {@code demo:N-1}) as plain string keys, then
 * into the sharded namespace {@code memory-demo}, and measures each as {@code MEMORY USAGE} summed
 * over its own keys (the plain keys; the namespace's buckets and overflow keys): unlike the growth
 * of {@code used_memory}, no other traffic, and no memory freed in the background by an earlier
 * {@code UNLINK}, moves the figure, so the same request gives the same ratio. Both sets are deleted
 * before and after. One comparison at a time: a second one while one runs is refused with
 * {@link ConflictException}.
 */
@Service
public class MemoryComparison {

	static final String PLAIN_PREFIX = "demo:";

	private static final int BATCH = 1000;

	private final StringRedisTemplate redis;

	private final ShardedTemplate<Long> sharded;

	private final RedisMemory memory;

	private final MemoryComparisonProperties properties;

	private final ReentrantLock running = new ReentrantLock();

	private volatile @Nullable Result lastResult;

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
	public Result compare(@Nullable Integer keys) {
		int n = (keys != null) ? keys : this.properties.defaultKeys();
		if (n < 1 || n > this.properties.maxKeys()) {
			throw new IllegalArgumentException(
					"keys must be between 1 and " + this.properties.maxKeys() + ", was " + n);
		}
		if (!this.running.tryLock()) {
			throw new ConflictException("A memory comparison is running; send this one again when it has finished");
		}
		try {
			clear();
			loadPlain(n);
			long plain = this.memory.memoryUsageOfMatching(PLAIN_PREFIX + "*");
			this.memory.deleteMatching(PLAIN_PREFIX + "*");
			loadSharded(n);
			long sharded = bucketsMemoryUsage();
			BucketMemoryReport buckets = this.sharded.memoryReport(Integer.MAX_VALUE);
			Result result = new Result(n, this.memory.version(), new Cost(plain, Savings.round((double) plain / n)),
					new Cost(sharded, Savings.round((double) sharded / n)), Savings.round((double) plain / sharded),
					buckets.sampledBuckets(), buckets.flippedBuckets());
			this.lastResult = result;
			return result;
		}
		finally {
			try {
				clear();
			}
			finally {
				this.running.unlock();
			}
		}
	}

	/** The latest comparison's result, or {@code null} before the first. */
	public @Nullable Result lastResult() {
		return this.lastResult;
	}

	/** Whether a comparison is running now. */
	public boolean isRunning() {
		return this.running.isLocked();
	}

	private long bucketsMemoryUsage() {
		ShardedNamespace namespace = this.sharded.namespace();
		return this.memory.memoryUsageOfMatching(namespace.bucketPrefix() + "{" + namespace.alias() + ":n:*")
				+ this.memory.memoryUsageOfMatching(namespace.bucketPrefix() + "{" + namespace.alias() + ":h:*");
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
	 * @param memoryUsage {@code MEMORY USAGE} of every key holding them, summed, in bytes
	 * @param bytesPerKey {@code memoryUsage} divided by the number of logical keys
	 */
	public record Cost(long memoryUsage, double bytesPerKey) {

	}

}
