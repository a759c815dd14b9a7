package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * Computes where a logical key lives under a namespace and layout. Immutable and thread-safe.
 */
final class KeyPlacement {

	/** Longest canonical decimal id placed by division: 18 digits cannot overflow a long. */
	private static final int MAX_ID_DIGITS = 18;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final int maxFieldBytes;

	private final String owned;

	KeyPlacement(ShardedNamespace namespace, ShardLayout layout, int maxFieldBytes) {
		this.namespace = namespace;
		this.layout = layout;
		this.maxFieldBytes = maxFieldBytes;
		this.owned = namespace.ownedKeyPrefix();
	}

	/**
	 * Where {@code key} lives.
	 * @throws IllegalArgumentException when the key is null or lacks the namespace's key prefix
	 */
	Location locate(String key) {
		String id = id(key);
		if (this.layout.strategy() == ShardingStrategy.NUMERIC && isCanonicalDecimal(id)) {
			long value = Long.parseLong(id);
			long quotient = value / this.layout.bucketSize();
			long remainder = value % this.layout.bucketSize();
			return new Location(key, bytes(this.owned + "n:" + quotient), bytes(Long.toString(remainder)), null);
		}
		byte[] field = bytes(id);
		if (field.length > this.maxFieldBytes) {
			// a field this long would flip the bucket: the value gets a plain key of its own
			return new Location(key, null, field, bytes(this.owned + "l:" + id));
		}
		int index = Integer.remainderUnsigned(fnv1a32(field), this.layout.bucketCount());
		return new Location(key, bytes(this.owned + "h:" + index), field, null);
	}

	/**
	 * The logical key for a field of a bucket, or {@code null} when the bucket key is not one of
	 * this namespace's buckets.
	 */
	@Nullable String logicalKey(String bucketKey, String field) {
		if (bucketKey.startsWith(this.owned + "n:")) {
			long quotient = Long.parseLong(bucketKey.substring(this.owned.length() + 2));
			return this.namespace.keyPrefix() + (quotient * this.layout.bucketSize() + Long.parseLong(field));
		}
		if (bucketKey.startsWith(this.owned + "h:")) {
			return this.namespace.keyPrefix() + field;
		}
		if (bucketKey.startsWith(this.owned + "l:")) {
			return this.namespace.keyPrefix() + bucketKey.substring(this.owned.length() + 2);
		}
		return null;
	}

	/** The key of the layout record. */
	byte[] layoutKey() {
		return bytes(this.owned + "layout");
	}

	/** The plain key holding an overflowed value with the given marker nonce (hex). */
	byte[] overflowKey(String nonceHex) {
		return bytes(this.owned + "x:" + nonceHex);
	}

	/** The glob matching this namespace's buckets and long-id keys ({@code n:}, {@code h:}, {@code l:}). */
	String[] scanPatterns() {
		String escaped = escapeGlob(this.owned);
		return new String[] { escaped + "n:*", escaped + "h:*", escaped + "l:*" };
	}

	/** The glob matching this namespace's buckets only. */
	String[] bucketPatterns() {
		String escaped = escapeGlob(this.owned);
		return new String[] { escaped + "n:*", escaped + "h:*" };
	}

	private String id(String key) {
		if (key == null) {
			throw new IllegalArgumentException("key must not be null");
		}
		String prefix = this.namespace.keyPrefix();
		if (!key.startsWith(prefix)) {
			throw new IllegalArgumentException("key '" + key + "' does not start with the key prefix '" + prefix
					+ "' of namespace '" + this.namespace.name() + "'");
		}
		return key.substring(prefix.length());
	}

	/** Whether {@code id} is {@code 0} or a decimal without leading zero, sign or other characters, of at most 18 digits. */
	static boolean isCanonicalDecimal(String id) {
		int length = id.length();
		if (length == 0 || length > MAX_ID_DIGITS) {
			return false;
		}
		if (id.charAt(0) == '0') {
			return length == 1;
		}
		for (int i = 0; i < length; i++) {
			char c = id.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
		}
		return true;
	}

	/** 32-bit FNV-1a: stable across JVMs and versions, unlike {@code String.hashCode} guarantees nothing about. */
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
	 * Where one logical key lives: a field of a bucket, or (for ids too long to be a field) a plain key.
	 *
	 * @param key the logical key
	 * @param bucket the bucket key, or {@code null} when the value lives in {@code plainKey}
	 * @param field the field within the bucket
	 * @param plainKey the plain key of a long id, or {@code null}
	 */
	record Location(String key, byte @Nullable [] bucket, byte[] field, byte @Nullable [] plainKey) {

		boolean inBucket() {
			return this.bucket != null;
		}

		String bucketName() {
			return (this.bucket != null) ? new String(this.bucket, StandardCharsets.UTF_8) : "";
		}

	}

}
