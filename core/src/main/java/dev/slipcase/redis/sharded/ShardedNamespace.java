package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The validated, immutable configuration of one namespace of a {@link ShardedTemplate}: which
 * logical keys it holds, how they are placed in buckets and what happens to TTLs. Create one with
 * {@link #builder(String)}; every setter checks its argument and {@link Builder#build()} checks the
 * combination, so an instance is always usable. Thread-safe.
 * <p>
 * Logical keys are the keys an application already uses, e.g. {@code user:1234}; the namespace's
 * {@link #keyPrefix() key prefix} ({@code user:}) is stripped to give the id ({@code 1234}) that
 * is placed in a bucket. Bucket keys are <code>&lt;bucketPrefix&gt;{&lt;alias&gt;:n:&lt;quotient&gt;}</code>
 * (numeric ids) and <code>&lt;bucketPrefix&gt;{&lt;alias&gt;:h:&lt;index&gt;}</code> (other ids); a value too
 * long for its bucket lives in <code>&lt;bucket&gt;:&lt;field&gt;</code>, in the same cluster slot; the
 * layout record is <code>&lt;bucketPrefix&gt;{&lt;alias&gt;:layout}</code>. Aliases may not contain
 * {@code ':'}, so the keys of two namespaces never overlap.
 * <p>
 * Sizes left unset ({@code null}) are derived from the server at start-up: bucket size from
 * {@code hash-max-listpack-entries} ({@code hash-max-ziplist-entries} on Redis 6.2) times the
 * {@link #fillFactor() fill factor}, the largest value from {@code hash-max-listpack-value}. Set
 * {@link Builder#maxEntries(int)} and {@link Builder#maxValueBytes(int)} where {@code CONFIG} is
 * blocked (managed Redis); Slipcase never changes the server's configuration.
 * <p>
 * Longer than most classes because its builder checks every setting where it is set, with a
 * message naming the setting.
 */
public final class ShardedNamespace {

	/** Default prefix of every bucket, overflow and layout key. */
	public static final String DEFAULT_BUCKET_PREFIX = "~sc:";

	/**
	 * Default share of the server's listpack entry limit a bucket is filled to: a quarter, 128 fields
	 * with Redis's default of 512. Redis finds a field in a listpack by walking it, so a 128-field
	 * bucket costs about half the server time per {@code HGET}/{@code HSET} of a 384-field one, while
	 * memory per key stays within a few percent (the per-bucket overhead is spread over 128 keys
	 * still; see the benchmark report).
	 */
	public static final double DEFAULT_FILL_FACTOR = 0.25;

	/** Default number of hashed buckets when neither a bucket count nor expected keys are set. */
	public static final int DEFAULT_BUCKET_COUNT = 1024;

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

	private final String name;

	private final String alias;

	private final String keyPrefix;

	private final String bucketPrefix;

	private final ShardingStrategy strategy;

	private final @Nullable Integer bucketSize;

	private final double fillFactor;

	private final @Nullable Integer bucketCount;

	private final @Nullable Long expectedKeys;

	private final @Nullable Integer maxEntries;

	private final @Nullable Integer maxValueBytes;

	private final TtlFallback ttlFallback;

	private final @Nullable Duration bucketTtl;

	private final boolean readThrough;

	private ShardedNamespace(Builder builder) {
		this.name = builder.name;
		this.alias = (builder.alias != null) ? builder.alias : builder.name;
		this.keyPrefix = builder.keyPrefix;
		this.bucketPrefix = builder.bucketPrefix;
		this.strategy = builder.strategy;
		this.bucketSize = builder.bucketSize;
		this.fillFactor = builder.fillFactor;
		this.bucketCount = builder.bucketCount;
		this.expectedKeys = builder.expectedKeys;
		this.maxEntries = builder.maxEntries;
		this.maxValueBytes = builder.maxValueBytes;
		this.ttlFallback = builder.ttlFallback;
		this.bucketTtl = builder.bucketTtl;
		this.readThrough = builder.readThrough;
	}

	/**
	 * Starts a namespace.
	 * @param name the namespace's name, letters, digits, {@code _ . -} only, never {@code null}
	 */
	public static Builder builder(String name) {
		return new Builder(name);
	}

	/** The namespace's name, used in messages and, unless aliased, in bucket keys. */
	public String name() {
		return this.name;
	}

	/** The short name used in bucket keys instead of the name, one-to-one with the namespace. */
	public String alias() {
		return this.alias;
	}

	/** The prefix every logical key of this namespace starts with, stripped to give the id; may be empty. */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	/** The prefix of every bucket, overflow and layout key of this namespace. */
	public String bucketPrefix() {
		return this.bucketPrefix;
	}

	/** How ids are placed in buckets. */
	public ShardingStrategy strategy() {
		return this.strategy;
	}

	/** The explicit number of ids per numeric bucket, or {@code null} to derive it from the server. */
	public @Nullable Integer bucketSize() {
		return this.bucketSize;
	}

	/** The share of the server's listpack entry limit a bucket is filled to, in (0, 1]. */
	public double fillFactor() {
		return this.fillFactor;
	}

	/** The explicit number of hashed buckets, or {@code null} to derive it. */
	public @Nullable Integer bucketCount() {
		return this.bucketCount;
	}

	/** The number of keys expected in hashed buckets, which sizes the bucket count, or {@code null}. */
	public @Nullable Long expectedKeys() {
		return this.expectedKeys;
	}

	/** The server's listpack entry limit when {@code CONFIG GET} cannot tell, or {@code null}. */
	public @Nullable Integer maxEntries() {
		return this.maxEntries;
	}

	/** The server's listpack value size limit when {@code CONFIG GET} cannot tell, or {@code null}. */
	public @Nullable Integer maxValueBytes() {
		return this.maxValueBytes;
	}

	/** What happens to a per-key TTL on a server without hash-field expiration. */
	public TtlFallback ttlFallback() {
		return this.ttlFallback;
	}

	/** The TTL every bucket gets (again) on each write, for namespaces that expire as a whole, or {@code null}. */
	public @Nullable Duration bucketTtl() {
		return this.bucketTtl;
	}

	/** Whether reads fall back to the plain key of the same name when a key is not in its bucket (migration). */
	public boolean readThrough() {
		return this.readThrough;
	}

	/** The prefix of every key this namespace owns, opening its hash tag: <code>bucketPrefix + '{' + alias + ':'</code>. */
	String ownedKeyPrefix() {
		return this.bucketPrefix + "{" + this.alias + ":";
	}

	@Override
	public String toString() {
		return "ShardedNamespace[" + this.name + ", alias=" + this.alias + ", keyPrefix='" + this.keyPrefix
				+ "', strategy=" + this.strategy + "]";
	}

	/**
	 * Builds a {@link ShardedNamespace}. Not thread-safe; {@link #build()} may be called more than once.
	 */
	public static final class Builder {

		private final String name;

		private @Nullable String alias;

		private String keyPrefix = "";

		private String bucketPrefix = DEFAULT_BUCKET_PREFIX;

		private ShardingStrategy strategy = ShardingStrategy.NUMERIC;

		private @Nullable Integer bucketSize;

		private double fillFactor = DEFAULT_FILL_FACTOR;

		private @Nullable Integer bucketCount;

		private @Nullable Long expectedKeys;

		private @Nullable Integer maxEntries;

		private @Nullable Integer maxValueBytes;

		private TtlFallback ttlFallback = TtlFallback.PLAIN_KEY;

		private @Nullable Duration bucketTtl;

		private boolean readThrough;

		private Builder(String name) {
			this.name = checkName(name, "name");
		}

		/** The short name used in bucket keys instead of the name (e.g. {@code u} for {@code user-prefs}). */
		public Builder alias(String alias) {
			this.alias = checkName(alias, "alias");
			return this;
		}

		/** The prefix every logical key starts with (e.g. {@code user:}), stripped before placement. */
		public Builder keyPrefix(String keyPrefix) {
			Assert.notNull(keyPrefix, "keyPrefix must not be null");
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * The prefix of bucket keys; must not be empty and must not contain <code>{</code>, <code>}</code>
		 * (a hash tag would put every bucket in one cluster slot) or glob characters.
		 */
		public Builder bucketPrefix(String bucketPrefix) {
			Assert.notNull(bucketPrefix, "bucketPrefix must not be null");
			if (bucketPrefix.isEmpty()) {
				throw new IllegalArgumentException("bucketPrefix must not be empty: bucket keys need a prefix "
						+ "no plain key uses");
			}
			for (char c : bucketPrefix.toCharArray()) {
				if ("{}*?[]\\".indexOf(c) >= 0 || Character.isWhitespace(c)) {
					throw new IllegalArgumentException("bucketPrefix must not contain '" + c + "' (hash tags, glob "
							+ "characters and whitespace are not allowed), was '" + bucketPrefix + "'");
				}
			}
			this.bucketPrefix = bucketPrefix;
			return this;
		}

		/** How ids are placed in buckets; {@link ShardingStrategy#NUMERIC} by default. */
		public Builder strategy(ShardingStrategy strategy) {
			Assert.notNull(strategy, "strategy must not be null");
			this.strategy = strategy;
			return this;
		}

		/** Ids per numeric bucket, overriding the server-derived size; at least 1. */
		public Builder bucketSize(int bucketSize) {
			if (bucketSize < 1) {
				throw new IllegalArgumentException("bucketSize must be at least 1, was " + bucketSize);
			}
			this.bucketSize = bucketSize;
			return this;
		}

		/** The share of the server's entry limit a bucket is filled to, in (0, 1]; 0.25 by default. */
		public Builder fillFactor(double fillFactor) {
			if (!(fillFactor > 0 && fillFactor <= 1)) {
				throw new IllegalArgumentException("fillFactor must be in (0, 1], was " + fillFactor);
			}
			this.fillFactor = fillFactor;
			return this;
		}

		/** The number of hashed buckets; at least 1. */
		public Builder bucketCount(int bucketCount) {
			if (bucketCount < 1) {
				throw new IllegalArgumentException("bucketCount must be at least 1, was " + bucketCount);
			}
			this.bucketCount = bucketCount;
			return this;
		}

		/** The number of keys expected in hashed buckets; sizes the bucket count when none is set. */
		public Builder expectedKeys(long expectedKeys) {
			if (expectedKeys < 1) {
				throw new IllegalArgumentException("expectedKeys must be at least 1, was " + expectedKeys);
			}
			this.expectedKeys = expectedKeys;
			return this;
		}

		/** The server's {@code hash-max-listpack-entries}, for servers where {@code CONFIG GET} is blocked. */
		public Builder maxEntries(int maxEntries) {
			if (maxEntries < 1) {
				throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
			}
			this.maxEntries = maxEntries;
			return this;
		}

		/** The server's {@code hash-max-listpack-value}, for servers where {@code CONFIG GET} is blocked. */
		public Builder maxValueBytes(int maxValueBytes) {
			if (maxValueBytes < 1) {
				throw new IllegalArgumentException("maxValueBytes must be at least 1, was " + maxValueBytes);
			}
			this.maxValueBytes = maxValueBytes;
			return this;
		}

		/** What a per-key TTL does on a server without {@code HPEXPIRE}; {@link TtlFallback#PLAIN_KEY} by default. */
		public Builder ttlFallback(TtlFallback ttlFallback) {
			Assert.notNull(ttlFallback, "ttlFallback must not be null");
			this.ttlFallback = ttlFallback;
			return this;
		}

		/** A TTL every bucket gets again on each write, for namespaces that expire as a whole; {@code null} for none. */
		public Builder bucketTtl(@Nullable Duration bucketTtl) {
			if (bucketTtl != null && (bucketTtl.isNegative() || bucketTtl.toMillis() < 1)) {
				throw new IllegalArgumentException("bucketTtl must be at least 1 ms, was " + bucketTtl);
			}
			this.bucketTtl = bucketTtl;
			return this;
		}

		/** Whether reads fall back to the existing plain key of the same name (while migrating). */
		public Builder readThrough(boolean readThrough) {
			this.readThrough = readThrough;
			return this;
		}

		/**
		 * Checks the combination and builds the namespace.
		 * @throws IllegalArgumentException when the settings contradict each other
		 */
		public ShardedNamespace build() {
			if (this.strategy == ShardingStrategy.HASHED && this.bucketSize != null) {
				throw new IllegalArgumentException("Namespace '" + this.name + "': bucketSize applies to NUMERIC "
						+ "namespaces; size HASHED namespaces with bucketCount or expectedKeys");
			}
			if (this.bucketSize != null && this.maxEntries != null && this.bucketSize > this.maxEntries) {
				throw new IllegalArgumentException("Namespace '" + this.name + "': bucketSize " + this.bucketSize
						+ " exceeds maxEntries " + this.maxEntries + "; every full bucket would leave listpack encoding");
			}
			return new ShardedNamespace(this);
		}

		private static String checkName(String value, String what) {
			Assert.notNull(value, () -> what + " must not be null");
			if (!NAME.matcher(value).matches()) {
				throw new IllegalArgumentException(what + " must be letters, digits, '_', '.' or '-', was '" + value + "'");
			}
			return value;
		}

	}

}
