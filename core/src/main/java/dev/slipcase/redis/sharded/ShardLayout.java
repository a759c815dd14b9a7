package dev.slipcase.redis.sharded;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.util.Assert;

/**
 * Where a namespace's keys live: the namespace and key prefix that own the bucket names, the
 * strategy, the ids per numeric bucket, the number of hashed buckets, the hash function and the
 * layout version. Stored in Redis next to the buckets and
 * compared at start-up, because a different layout would silently look for every key in the wrong
 * bucket.
 *
 * @param strategy how ids are placed, never {@code null}
 * @param bucketSize ids per numeric bucket (the divisor), at least 1
 * @param bucketCount the number of hashed buckets, at least 1
 * @param hash the name of the hash function for hashed buckets, never {@code null}
 * @param version the layout version
 * @param namespace the name of the namespace whose alias the buckets carry, never {@code null}
 * @param keyPrefix the key prefix stripped from logical keys, never {@code null}
 */
public record ShardLayout(ShardingStrategy strategy, int bucketSize, int bucketCount, String hash, int version,
		String namespace, String keyPrefix) {

	/**
	 * The current layout version: 2, where a field holds either a value or the marker of a value in
	 * its overflow key (version 1 kept no marker, so its overflow values would not be found).
	 */
	public static final int VERSION = 2;

	/**
	 * 32-bit FNV-1a of the id's UTF-8 bytes: the hash of the layouts stored before keyed placement,
	 * which keep it. Unkeyed: anyone can compute ids that all land in one bucket.
	 */
	public static final String FNV1A_32 = "fnv1a32";

	/**
	 * SipHash-2-4 of the id's UTF-8 bytes, keyed with a secret made for the namespace and stored
	 * beside its layout: the hash of new layouts.
	 */
	public static final String SIPHASH_24 = "siphash24";

	public ShardLayout {
		Assert.notNull(strategy, "strategy must not be null");
		Assert.notNull(hash, "hash must not be null");
		Assert.notNull(namespace, "namespace must not be null");
		Assert.notNull(keyPrefix, "keyPrefix must not be null");
		if (bucketSize < 1) {
			throw new IllegalArgumentException("bucketSize must be at least 1, was " + bucketSize);
		}
		if (bucketCount < 1) {
			throw new IllegalArgumentException("bucketCount must be at least 1, was " + bucketCount);
		}
	}

	/**
	 * The text stored in Redis, e.g.
	 * {@code v=1;strategy=NUMERIC;bucket-size=384;bucket-count=1024;hash=fnv1a32;namespace=users;key-prefix=user%3A}
	 * (names URL-encoded).
	 */
	public String encode() {
		return "v=" + this.version + ";strategy=" + this.strategy + ";bucket-size=" + this.bucketSize + ";bucket-count="
				+ this.bucketCount + ";hash=" + this.hash + ";namespace=" + encode(this.namespace) + ";key-prefix="
				+ encode(this.keyPrefix);
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

	/**
	 * Reads a layout written by {@link #encode()}.
	 * @throws IllegalStateException when the text is not a layout, naming the text
	 */
	public static ShardLayout parse(String text) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String part : text.split(";")) {
			int eq = part.indexOf('=');
			if (eq > 0) {
				fields.put(part.substring(0, eq), part.substring(eq + 1));
			}
		}
		try {
			return new ShardLayout(ShardingStrategy.valueOf(required(fields, "strategy", text)),
					Integer.parseInt(required(fields, "bucket-size", text)),
					Integer.parseInt(required(fields, "bucket-count", text)), required(fields, "hash", text),
					Integer.parseInt(required(fields, "v", text)), decode(required(fields, "namespace", text)),
					decode(required(fields, "key-prefix", text)));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Stored sharded layout '" + text + "' is not readable: " + ex.getMessage(), ex);
		}
	}

	private static String required(Map<String, String> fields, String name, String text) {
		String value = fields.get(name);
		if (value == null) {
			throw new IllegalStateException("Stored sharded layout '" + text + "' has no '" + name + "'");
		}
		return value;
	}

}
