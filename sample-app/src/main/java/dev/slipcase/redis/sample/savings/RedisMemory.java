package dev.slipcase.redis.sample.savings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.stereotype.Component;

/**
 * Asks the running Redis what things cost: {@code INFO memory}, {@code MEMORY USAGE},
 * {@code STRLEN}, and what plain keys would cost. Thread-safe.
 */
@Component
public class RedisMemory {

	private static final byte[] MEMORY_USAGE = bytes(
			"local usage = redis.call('MEMORY', 'USAGE', KEYS[1]) if usage then return usage end return 0");

	private static final byte[] MEMORY_USAGE_SUM = bytes("local total = 0 for _, key in ipairs(KEYS) do "
			+ "local usage = redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0') "
			+ "if usage then total = total + usage end end return total");

	private static final int BATCH = 1000;

	private final RedisConnectionFactory connectionFactory;

	RedisMemory(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/** The server's version, from {@code INFO server}. */
	public String version() {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return connection.serverCommands().info("server").getProperty("redis_version");
		}
	}

	/** {@code MEMORY USAGE key}: what the key and its value cost, or {@code null} when there is no such key. */
	public @Nullable Long memoryUsage(String key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return memoryUsage(connection, key);
		}
	}

	/** The length of the string value at {@code key}, 0 when there is none. */
	public long storedBytes(String key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Long length = connection.stringCommands().strLen(bytes(key));
			return (length != null) ? length : 0;
		}
	}

	/** The first {@code count} bytes of the string value at {@code key}, empty when there is none. */
	public byte[] head(String key, int count) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			byte[] head = connection.stringCommands().getRange(bytes(key), 0, count - 1);
			return (head != null) ? head : new byte[0];
		}
	}

	/**
	 * What the entries cost on average as plain string keys, by {@code MEMORY USAGE}: each is set
	 * with {@code SET NX} (a key that exists is skipped, and left alone), measured and deleted.
	 * @return bytes per key, 0 when no key could be measured
	 */
	public double plainBytesPerKey(Map<String, String> entries) {
		long bytes = 0;
		int measured = 0;
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			for (Map.Entry<String, String> entry : entries.entrySet()) {
				byte[] key = bytes(entry.getKey());
				if (Boolean.TRUE.equals(connection.stringCommands().setNX(key, bytes(entry.getValue())))) {
					try {
						Long usage = memoryUsage(connection, entry.getKey());
						if (usage != null) {
							bytes += usage;
							measured++;
						}
					}
					finally {
						connection.keyCommands().del(key);
					}
				}
			}
		}
		return (measured > 0) ? (double) bytes / measured : 0;
	}

	/**
	 * {@code MEMORY USAGE key SAMPLES 0} (every element counted) of every key matching
	 * {@code pattern}, summed: {@code SCAN}, then one script call per 1,000 keys.
	 */
	public long memoryUsageOfMatching(String pattern) {
		return sumOverBatches(pattern, (connection, keys) -> connection.scriptingCommands()
			.eval(MEMORY_USAGE_SUM, ReturnType.INTEGER, keys.length, keys));
	}

	/** Deletes every key matching {@code pattern} ({@code SCAN}, then {@code UNLINK} in batches). */
	public long deleteMatching(String pattern) {
		return sumOverBatches(pattern, (connection, keys) -> connection.keyCommands().unlink(keys));
	}

	/**
	 * {@code SCAN}s the keys matching {@code pattern} and applies {@code action} to each batch of up
	 * to 1,000 of them; the sum of what it returned.
	 */
	private long sumOverBatches(String pattern, BiFunction<RedisConnection, byte[][], @Nullable Long> action) {
		long total = 0;
		try (RedisConnection connection = this.connectionFactory.getConnection();
				Cursor<byte[]> keys = connection.keyCommands().scan(ScanOptions.scanOptions().match(pattern).count(BATCH).build())) {
			List<byte[]> batch = new ArrayList<>();
			while (keys.hasNext()) {
				batch.add(keys.next());
				if (batch.size() == BATCH || !keys.hasNext()) {
					Long result = action.apply(connection, batch.toArray(new byte[0][]));
					total += (result != null) ? result : 0;
					batch.clear();
				}
			}
		}
		return total;
	}

	private static @Nullable Long memoryUsage(RedisConnection connection, String key) {
		// through EVAL: Spring Data's RedisConnection.execute reads replies as bulk strings only
		Long usage = connection.scriptingCommands().eval(MEMORY_USAGE, ReturnType.INTEGER, 1, bytes(key));
		return (usage != null && usage > 0) ? usage : null;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
