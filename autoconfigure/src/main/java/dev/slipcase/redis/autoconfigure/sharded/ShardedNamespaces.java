package dev.slipcase.redis.autoconfigure.sharded;

import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.sharded.SlipcaseShardedProperties.Namespace;
import dev.slipcase.redis.sharded.ShardedNamespace;

/**
 * Turns one {@code slipcase.redis.sharded.namespaces.<name>} group into a
 * {@link ShardedNamespace.Builder}, failing with a {@link SlipcaseConfigurationException} that
 * names the offending property.
 */
final class ShardedNamespaces {

	static final String PREFIX = "slipcase.redis.sharded.namespaces.";

	private ShardedNamespaces() {
	}

	/** The bean name of a namespace's template: {@code user-prefs} gives {@code userPrefsShardedTemplate}. */
	static String beanName(String name) {
		StringBuilder bean = new StringBuilder(name.length() + 16);
		boolean upper = false;
		for (char c : name.toCharArray()) {
			if (c == '-' || c == '.' || c == '_') {
				upper = bean.length() > 0;
			}
			else {
				bean.append(upper ? Character.toUpperCase(c) : (bean.length() == 0) ? Character.toLowerCase(c) : c);
				upper = false;
			}
		}
		return bean + "ShardedTemplate";
	}

	/** The builder of namespace {@code name}, every property applied and checked. */
	static ShardedNamespace.Builder builder(String name, Namespace properties) {
		String prefix = PREFIX + name + ".";
		ShardedNamespace.Builder builder = apply(PREFIX + name, "Use a namespace name of letters, digits, '_', '.' "
				+ "or '-' under slipcase.redis.sharded.namespaces.", () -> ShardedNamespace.builder(name));
		String alias = properties.getAlias();
		if (alias != null) {
			apply(prefix + "alias", "Use an alias of letters, digits, '_', '.' or '-'.", () -> builder.alias(alias));
		}
		apply(prefix + "key-prefix", "Set key-prefix to the prefix the namespace's keys start with.",
				() -> builder.keyPrefix(properties.getKeyPrefix()));
		apply(prefix + "bucket-prefix", "Use a non-empty bucket-prefix without '{', '}', glob characters or "
				+ "whitespace, such as the default '" + ShardedNamespace.DEFAULT_BUCKET_PREFIX + "'.",
				() -> builder.bucketPrefix(properties.getBucketPrefix()));
		apply(prefix + "strategy", "Set strategy to NUMERIC or HASHED.", () -> builder.strategy(properties.getStrategy()));
		double fill = properties.getFillFactor();
		if (fill > 1) {
			throw new SlipcaseConfigurationException(prefix + "fill-factor", "fill-factor " + fill + " is "
					+ Math.round(fill * 100) + "% of the server's hash-max-listpack-entries: full buckets would "
					+ "leave the compact encoding and sharding would save nothing.",
					"Set " + prefix + "fill-factor above 0 and at most 1 (100%); the default is "
							+ ShardedNamespace.DEFAULT_FILL_FACTOR + ".",
					null);
		}
		apply(prefix + "fill-factor", "Set fill-factor above 0 and at most 1 (100%); the default is "
				+ ShardedNamespace.DEFAULT_FILL_FACTOR + ".", () -> builder.fillFactor(fill));
		Integer bucketSize = properties.getBucketSize();
		if (bucketSize != null) {
			apply(prefix + "bucket-size", "Set bucket-size to at least 1, or remove it to derive it from the server.",
					() -> builder.bucketSize(bucketSize));
		}
		Integer bucketCount = properties.getBucketCount();
		if (bucketCount != null) {
			apply(prefix + "bucket-count", "Set bucket-count to at least 1, or remove it.",
					() -> builder.bucketCount(bucketCount));
		}
		Long expectedKeys = properties.getExpectedKeys();
		if (expectedKeys != null) {
			apply(prefix + "expected-keys", "Set expected-keys to at least 1, or remove it.",
					() -> builder.expectedKeys(expectedKeys));
		}
		Integer maxEntries = properties.getMaxEntries();
		if (maxEntries != null) {
			apply(prefix + "max-entries", "Set max-entries to the server's hash-max-listpack-entries (at least 1).",
					() -> builder.maxEntries(maxEntries));
		}
		if (properties.getMaxValueSize() != null) {
			long bytes = properties.getMaxValueSize().toBytes();
			String action = "Set max-value-size to the server's hash-max-listpack-value (e.g. 64B), at least 1B.";
			if (bytes > Integer.MAX_VALUE) {
				throw new SlipcaseConfigurationException(prefix + "max-value-size", "max-value-size "
						+ properties.getMaxValueSize() + " is larger than any hash-max-listpack-value.", action, null);
			}
			apply(prefix + "max-value-size", action, () -> builder.maxValueBytes((int) bytes));
		}
		apply(prefix + "ttl-fallback", "Set ttl-fallback to PLAIN_KEY or REFUSE.",
				() -> builder.ttlFallback(properties.getTtlFallback()));
		apply(prefix + "bucket-ttl", "Set bucket-ttl to at least 1ms, or remove it.",
				() -> builder.bucketTtl(properties.getBucketTtl()));
		builder.readThrough(properties.isReadThrough());
		return builder;
	}

	/** Builds the namespace, reporting contradicting settings against the namespace's group. */
	static ShardedNamespace build(String name, ShardedNamespace.Builder builder) {
		return apply(PREFIX + name, "Make the settings of namespace '" + name + "' agree: bucket-size applies to "
				+ "NUMERIC namespaces only and must not exceed max-entries.", builder::build);
	}

	private static <T> T apply(String property, String action, Step<T> step) {
		try {
			return step.run();
		}
		catch (IllegalArgumentException | NullPointerException ex) {
			throw new SlipcaseConfigurationException(property, String.valueOf(ex.getMessage()), action, ex);
		}
	}

	@FunctionalInterface
	private interface Step<T> {

		T run();

	}

}
