package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Computes where a logical key lives under a namespace and layout. Immutable and thread-safe.
 * <p>
 * A bucket key carries a hash tag, {@code <bucketPrefix>{<alias>:n:<quotient>}} or
 * {@code <bucketPrefix>{<alias>:h:<index>}}, and the overflow key of each of its fields is
 * {@code <bucket>:<field>}: the same cluster slot, so one transaction or script can move a value
 * between the bucket and its overflow key atomically, while different buckets still spread over
 * the slots.
 */
final class KeyPlacement {

	/** Longest canonical decimal id placed by division: 18 digits cannot overflow a long. */
	private static final int MAX_ID_DIGITS = 18;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final int maxFieldBytes;

	/** The keyed hash of a {@link ShardLayout#SIPHASH_24} layout, {@code null} for {@link ShardLayout#FNV1A_32}. */
	private final @Nullable SipHash24 keyedHash;

	/** {@code <bucketPrefix>{<alias>:} */
	private final String owned;

	private final byte[] ownedBytes;

	private static final byte[] NUMERIC_KIND = { 'n', ':' };

	private static final byte[] HASHED_KIND = { 'h', ':' };

	/**
	 * Placement under {@code layout}, whose hashed ids go to bucket {@code fnv1a32(id)} or, keyed
	 * with {@code secret}, {@code siphash24(id)}, modulo the bucket count.
	 * @param secret the namespace's secret ({@link SipHash24#KEY_BYTES} bytes) for a
	 * {@link ShardLayout#SIPHASH_24} layout, else {@code null}
	 * @throws IllegalArgumentException when the layout names another hash, or the secret does not
	 * fit its hash
	 */
	KeyPlacement(ShardedNamespace namespace, ShardLayout layout, int maxFieldBytes, byte @Nullable [] secret) {
		this.namespace = namespace;
		this.layout = layout;
		this.maxFieldBytes = maxFieldBytes;
		this.owned = namespace.ownedKeyPrefix();
		this.ownedBytes = bytes(this.owned);
		switch (layout.hash()) {
			case ShardLayout.FNV1A_32 -> {
				Assert.isNull(secret, "An fnv1a32 layout has no secret");
				this.keyedHash = null;
			}
			case ShardLayout.SIPHASH_24 -> {
				Assert.notNull(secret, "A siphash24 layout needs its namespace's secret");
				this.keyedHash = new SipHash24(secret);
			}
			default -> throw new IllegalArgumentException("Namespace '" + namespace.name() + "' is stored with hash '"
					+ layout.hash() + "', which this version does not know (it knows " + ShardLayout.FNV1A_32 + " and "
					+ ShardLayout.SIPHASH_24 + ")");
		}
	}

	/** The layout keys are placed under. */
	ShardLayout layout() {
		return this.layout;
	}

	/**
	 * Where {@code key} lives.
	 * @throws IllegalArgumentException when the key is null or lacks the namespace's key prefix
	 */
	Location locate(String key) {
		int idStart = idStart(key);
		if (this.layout.strategy() == ShardingStrategy.NUMERIC && isCanonicalDecimal(key, idStart)) {
			// read in place: no copy of the id, and the field's digits written as bytes
			long value = Long.parseLong(key, idStart, key.length(), 10);
			long quotient = value / this.layout.bucketSize();
			return location(key, NUMERIC_KIND, quotient, decimal(value % this.layout.bucketSize()), -1);
		}
		byte[] fieldBytes = utf8(key, idStart);
		int hashedIndex = hashedBucket(fieldBytes);
		return location(key, HASHED_KIND, hashedIndex, fieldBytes, hashedIndex);
	}

	/** The location of {@code key} in bucket {@code number} of {@code kind} ({@code n:} or {@code h:}). */
	private Location location(String key, byte[] kind, long number, byte[] field, int hashedIndex) {
		int digits = digits(number);
		byte[] bucket = new byte[this.ownedBytes.length + kind.length + digits + 1];
		System.arraycopy(this.ownedBytes, 0, bucket, 0, this.ownedBytes.length);
		System.arraycopy(kind, 0, bucket, this.ownedBytes.length, kind.length);
		writeDecimal(number, bucket, this.ownedBytes.length + kind.length + digits);
		bucket[bucket.length - 1] = '}';
		// numeric buckets by their number, hashed ones below them
		long bucketId = (hashedIndex >= 0) ? -1L - hashedIndex : number;
		// a field longer than the server keeps in a compact hash would flip the bucket: such ids always overflow
		return new Location(key, bucket, bucketId, field, field.length <= this.maxFieldBytes, hashedIndex);
	}

	/**
	 * What a key of this namespace found by {@code SCAN} is, or {@code null} when it is not a bucket
	 * or overflow key of this namespace.
	 */
	@Nullable Owned parse(String redisKey) {
		if (!redisKey.startsWith(this.owned) || redisKey.length() < this.owned.length() + 4) {
			return null;
		}
		char kind = redisKey.charAt(this.owned.length());
		if ((kind != 'n' && kind != 'h') || redisKey.charAt(this.owned.length() + 1) != ':') {
			return null;
		}
		int close = redisKey.indexOf('}', this.owned.length() + 2);
		if (close < 0) {
			return null;
		}
		String number = redisKey.substring(this.owned.length() + 2, close);
		if (!isCanonicalDecimal(number)) {
			return null;
		}
		String bucket = redisKey.substring(0, close + 1);
		if (close == redisKey.length() - 1) {
			return new Owned(bucket, null);
		}
		if (redisKey.charAt(close + 1) != ':') {
			return null;
		}
		return new Owned(bucket, redisKey.substring(close + 2));
	}

	/** The logical key of a field of a bucket. */
	String logicalKey(String bucket, String field) {
		char kind = bucket.charAt(this.owned.length());
		if (kind == 'n') {
			long quotient = Long.parseLong(bucket.substring(this.owned.length() + 2, bucket.length() - 1));
			return this.namespace.keyPrefix() + (quotient * this.layout.bucketSize() + Long.parseLong(field));
		}
		return this.namespace.keyPrefix() + field;
	}

	/** The key of {@code namespace}'s layout record. */
	static byte[] layoutKey(ShardedNamespace namespace) {
		return bytes(namespace.ownedKeyPrefix() + "layout}");
	}

	/**
	 * The key of {@code namespace}'s placement secret, named as its layout key is: made once, by the
	 * first instance to store a {@link ShardLayout#SIPHASH_24} layout, and read by every other.
	 */
	static byte[] secretKey(ShardedNamespace namespace) {
		return bytes(namespace.ownedKeyPrefix() + "secret}");
	}

	/** Globs matching this namespace's buckets and overflow keys. */
	String[] scanPatterns() {
		String escaped = escapeGlob(this.owned);
		return new String[] { escaped + "n:*", escaped + "h:*" };
	}

	/** Where the id starts in {@code key}: after the namespace's key prefix. */
	private int idStart(String key) {
		Assert.notNull(key, "key must not be null");
		String prefix = this.namespace.keyPrefix();
		if (!key.startsWith(prefix)) {
			throw new IllegalArgumentException("key '" + key + "' does not start with the key prefix '" + prefix
					+ "' of namespace '" + this.namespace.name() + "'");
		}
		return prefix.length();
	}

	/** Whether {@code id} is {@code 0} or a decimal without leading zero, sign or other characters, of at most 18 digits. */
	static boolean isCanonicalDecimal(String id) {
		return isCanonicalDecimal(id, 0);
	}

	/** Whether {@code text} from {@code start} on is a canonical decimal, see {@link #isCanonicalDecimal(String)}. */
	private static boolean isCanonicalDecimal(String text, int start) {
		int length = text.length() - start;
		if (length <= 0 || length > MAX_ID_DIGITS) {
			return false;
		}
		if (text.charAt(start) == '0') {
			return length == 1;
		}
		for (int i = start; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

	/** The ASCII digits of {@code value}, which is not negative: what {@code bytes(Long.toString(value))} gives. */
	static byte[] decimal(long value) {
		byte[] bytes = new byte[digits(value)];
		writeDecimal(value, bytes, bytes.length);
		return bytes;
	}

	/** The number of decimal digits of {@code value}, which is not negative. */
	private static int digits(long value) {
		int digits = 1;
		for (long rest = value / 10; rest > 0; rest /= 10) {
			digits++;
		}
		return digits;
	}

	/** Writes the ASCII digits of {@code value}, which is not negative, into {@code bytes} ending before {@code end}. */
	private static void writeDecimal(long value, byte[] bytes, int end) {
		long rest = value;
		int i = end;
		do {
			bytes[--i] = (byte) ('0' + (rest % 10));
			rest /= 10;
		}
		while (rest > 0);
	}

	/**
	 * The UTF-8 bytes of {@code text} from {@code start} on: an id of ASCII characters, the usual
	 * one, is copied straight into its array, without the substring and encoder's copies.
	 */
	private static byte[] utf8(String text, int start) {
		byte[] ascii = new byte[text.length() - start];
		for (int i = 0; i < ascii.length; i++) {
			char c = text.charAt(start + i);
			if (c >= 0x80) {
				return bytes(text.substring(start));
			}
			ascii[i] = (byte) c;
		}
		return ascii;
	}

	/** The index of the hashed bucket of {@code id}. */
	int hashedBucket(byte[] id) {
		return (this.keyedHash != null) ? (int) Long.remainderUnsigned(this.keyedHash.hash(id), this.layout.bucketCount())
				: Integer.remainderUnsigned(fnv1a32(id), this.layout.bucketCount());
	}

	/** 32-bit FNV-1a: stable across JVMs and versions, which {@code String.hashCode} does not promise. */
	static int fnv1a32(byte[] data) {
		int hash = 0x811c9dc5;
		for (byte b : data) {
			hash ^= (b & 0xff);
			hash *= 0x01000193;
		}
		return hash;
	}

	static String escapeGlob(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (char c : text.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				out.append('\\');
			}
			out.append(c);
		}
		return out.toString();
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Where one logical key lives: a field of a bucket, or the bucket's overflow key for that field
	 * when the value (or the field itself) is too long for a compact hash. The overflow key's name
	 * is made on first use: most reads and writes never need it. Thread-safe (two threads may make
	 * the name twice, to the same bytes).
	 */
	static final class Location {

		private final String key;

		private final byte[] bucket;

		private final long bucketId;

		private final byte[] field;

		private final boolean fieldFits;

		private final int hashedIndex;

		private byte @Nullable [] overflow;

		/**
		 * @param key the logical key
		 * @param bucket the bucket key
		 * @param bucketId what tells the bucket from the namespace's others
		 * @param field the field within the bucket
		 * @param fieldFits whether the field is short enough to be stored in the bucket at all
		 * @param hashedIndex the index of a hashed bucket, -1 for a numeric one
		 */
		Location(String key, byte[] bucket, long bucketId, byte[] field, boolean fieldFits, int hashedIndex) {
			this.key = key;
			this.bucket = bucket;
			this.bucketId = bucketId;
			this.field = field;
			this.fieldFits = fieldFits;
			this.hashedIndex = hashedIndex;
		}

		/** The logical key. */
		String key() {
			return this.key;
		}

		/** The bucket key as text. */
		String bucketName() {
			return new String(this.bucket, StandardCharsets.UTF_8);
		}

		/** What tells the bucket from the namespace's other buckets: locations share a bucket when they share this. */
		long bucketId() {
			return this.bucketId;
		}

		/** The bucket key. */
		byte[] bucket() {
			return this.bucket;
		}

		/** The field within the bucket. */
		byte[] field() {
			return this.field;
		}

		/** Whether the field is short enough to be stored in the bucket at all. */
		boolean fieldFits() {
			return this.fieldFits;
		}

		/** The index of the hashed bucket, -1 for a numeric bucket. */
		int hashedIndex() {
			return this.hashedIndex;
		}

		/** Whether the bucket is hashed: one with an entry count to keep under the server's limit. */
		boolean isHashed() {
			return this.hashedIndex >= 0;
		}

		/** The overflow key, {@code <bucket>:<field>}, in the bucket's cluster slot. */
		byte[] overflow() {
			byte[] overflow = this.overflow;
			if (overflow == null) {
				overflow = new byte[this.bucket.length + 1 + this.field.length];
				System.arraycopy(this.bucket, 0, overflow, 0, this.bucket.length);
				overflow[this.bucket.length] = ':';
				System.arraycopy(this.field, 0, overflow, this.bucket.length + 1, this.field.length);
				this.overflow = overflow;
			}
			return overflow;
		}

		@Override
		public String toString() {
			return "Location[" + this.key + " -> " + bucketName() + "]";
		}

	}

	/**
	 * A bucket ({@code field == null}) or overflow key of this namespace.
	 *
	 * @param bucket the bucket key
	 * @param field the field an overflow key stands for, or {@code null} for the bucket itself
	 */
	record Owned(String bucket, @Nullable String field) {
	}

}
