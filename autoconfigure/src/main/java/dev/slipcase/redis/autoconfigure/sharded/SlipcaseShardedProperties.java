package dev.slipcase.redis.autoconfigure.sharded;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardingStrategy;
import dev.slipcase.redis.sharded.TtlFallback;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the hash-sharded small-value templates.
 */
@ConfigurationProperties("slipcase.redis.sharded")
public class SlipcaseShardedProperties {

	/**
	 * Whether to create the sharded templates: the ShardedTemplates factory and one template per
	 * declared namespace.
	 */
	private boolean enabled = true;

	/**
	 * Whether the templates of declared namespaces are created on first use instead of at
	 * start-up. At start-up (the default), an unreachable Redis or a layout that differs from the
	 * one stored in Redis fails start-up; on first use, they fail that use instead.
	 */
	private boolean lazyInitialization;

	/**
	 * Namespaces to create a template for, by namespace name; each becomes a bean named after
	 * the namespace in camel case followed by ShardedTemplate (user-prefs: userPrefsShardedTemplate).
	 */
	private final Map<String, Namespace> namespaces = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isLazyInitialization() {
		return this.lazyInitialization;
	}

	public void setLazyInitialization(boolean lazyInitialization) {
		this.lazyInitialization = lazyInitialization;
	}

	public Map<String, Namespace> getNamespaces() {
		return this.namespaces;
	}

	/**
	 * One namespace: which keys it holds, how they are placed in buckets, what happens to TTLs and
	 * how values are written.
	 */
	public static class Namespace {

		/**
		 * Short name used in bucket keys instead of the namespace name; one namespace per alias.
		 */
		private @Nullable String alias;

		/**
		 * Prefix every logical key of the namespace starts with (e.g. "user:"), stripped to give
		 * the id placed in a bucket.
		 */
		private String keyPrefix = "";

		/**
		 * Prefix of every bucket, overflow and layout key; no hash tags, glob characters or
		 * whitespace.
		 */
		private String bucketPrefix = ShardedNamespace.DEFAULT_BUCKET_PREFIX;

		/**
		 * How ids are placed in buckets: numeric ids by quotient and remainder, or any id by hash.
		 */
		private ShardingStrategy strategy = ShardingStrategy.NUMERIC;

		/**
		 * Share of the server's hash-max-listpack-entries a bucket is filled to, above 0 and at
		 * most 1 (100%).
		 */
		private double fillFactor = ShardedNamespace.DEFAULT_FILL_FACTOR;

		/**
		 * Ids per numeric bucket. Derived from the server's entry limit and the fill factor when not
		 * set.
		 */
		private @Nullable Integer bucketSize;

		/**
		 * Number of hashed buckets. Derived from expected-keys, else 1024, when not set.
		 */
		private @Nullable Integer bucketCount;

		/**
		 * Number of keys expected in hashed buckets, which sizes the bucket count when none is set.
		 */
		private @Nullable Long expectedKeys;

		/**
		 * Server's hash-max-listpack-entries, for servers where CONFIG GET is blocked (managed
		 * Redis). Read from the server when not set.
		 */
		private @Nullable Integer maxEntries;

		/**
		 * Server's hash-max-listpack-value, for servers where CONFIG GET is blocked (managed
		 * Redis). Read from the server when not set.
		 */
		private @Nullable DataSize maxValueSize;

		/**
		 * What a per-key TTL does on a server without hash-field expiration (before Redis 7.4):
		 * move the value to a plain key with that TTL, or refuse the write.
		 */
		private TtlFallback ttlFallback = TtlFallback.PLAIN_KEY;

		/**
		 * TTL every bucket gets again on each write, for namespaces that expire as a whole. No
		 * bucket TTL when not set.
		 */
		private @Nullable Duration bucketTtl;

		/**
		 * Whether reads fall back to the plain key of the same name when a key is not in its
		 * bucket, while existing keys are migrated.
		 */
		private boolean readThrough;

		/**
		 * Type of the values. String, Long, Integer, Double, BigDecimal and byte[] are stored as
		 * text or raw bytes (numbers usable with incrBy); other types as the format property or the
		 * format router say.
		 */
		private Class<?> valueType = String.class;

		/**
		 * Format of structured values (JSON or PROTOSTUFF). The format router's choice for the
		 * value type (its @RedisFormat, else JSON) when not set; ignored for text and number types.
		 */
		private @Nullable FormatKind format;

		public @Nullable String getAlias() {
			return this.alias;
		}

		public void setAlias(@Nullable String alias) {
			this.alias = alias;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public String getBucketPrefix() {
			return this.bucketPrefix;
		}

		public void setBucketPrefix(String bucketPrefix) {
			this.bucketPrefix = bucketPrefix;
		}

		public ShardingStrategy getStrategy() {
			return this.strategy;
		}

		public void setStrategy(ShardingStrategy strategy) {
			this.strategy = strategy;
		}

		public double getFillFactor() {
			return this.fillFactor;
		}

		public void setFillFactor(double fillFactor) {
			this.fillFactor = fillFactor;
		}

		public @Nullable Integer getBucketSize() {
			return this.bucketSize;
		}

		public void setBucketSize(@Nullable Integer bucketSize) {
			this.bucketSize = bucketSize;
		}

		public @Nullable Integer getBucketCount() {
			return this.bucketCount;
		}

		public void setBucketCount(@Nullable Integer bucketCount) {
			this.bucketCount = bucketCount;
		}

		public @Nullable Long getExpectedKeys() {
			return this.expectedKeys;
		}

		public void setExpectedKeys(@Nullable Long expectedKeys) {
			this.expectedKeys = expectedKeys;
		}

		public @Nullable Integer getMaxEntries() {
			return this.maxEntries;
		}

		public void setMaxEntries(@Nullable Integer maxEntries) {
			this.maxEntries = maxEntries;
		}

		public @Nullable DataSize getMaxValueSize() {
			return this.maxValueSize;
		}

		public void setMaxValueSize(@Nullable DataSize maxValueSize) {
			this.maxValueSize = maxValueSize;
		}

		public TtlFallback getTtlFallback() {
			return this.ttlFallback;
		}

		public void setTtlFallback(TtlFallback ttlFallback) {
			this.ttlFallback = ttlFallback;
		}

		public @Nullable Duration getBucketTtl() {
			return this.bucketTtl;
		}

		public void setBucketTtl(@Nullable Duration bucketTtl) {
			this.bucketTtl = bucketTtl;
		}

		public boolean isReadThrough() {
			return this.readThrough;
		}

		public void setReadThrough(boolean readThrough) {
			this.readThrough = readThrough;
		}

		public Class<?> getValueType() {
			return this.valueType;
		}

		public void setValueType(Class<?> valueType) {
			this.valueType = valueType;
		}

		public @Nullable FormatKind getFormat() {
			return this.format;
		}

		public void setFormat(@Nullable FormatKind format) {
			this.format = format;
		}

	}

}
