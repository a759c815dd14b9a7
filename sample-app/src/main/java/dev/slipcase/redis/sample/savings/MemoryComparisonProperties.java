package dev.slipcase.redis.sample.savings;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code sample.memory-comparison.*}: how many keys the memory comparison loads.
 *
 * @param defaultKeys keys loaded when the request names no number
 * @param maxKeys the most keys one comparison may load
 */
@ConfigurationProperties("sample.memory-comparison")
public record MemoryComparisonProperties(int defaultKeys, int maxKeys) {

	public MemoryComparisonProperties {
		if (defaultKeys < 1 || maxKeys < defaultKeys) {
			throw new IllegalArgumentException("sample.memory-comparison needs 1 <= default-keys <= max-keys, was "
					+ defaultKeys + " and " + maxKeys);
		}
	}

}
