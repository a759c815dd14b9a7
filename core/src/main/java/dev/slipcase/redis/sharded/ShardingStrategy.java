package dev.slipcase.redis.sharded;

/**
 * How a namespace maps a logical key to a bucket and a field.
 */
public enum ShardingStrategy {

	/**
	 * For numeric ids ({@code user:1234}): a key whose id (the key without the namespace's key
	 * prefix) is a canonical decimal ({@code 0} or no leading zero, at most 18 digits) lives in bucket
	 * {@code id / bucketSize} under field {@code id % bucketSize}, written as a plain decimal that
	 * listpack stores as an integer. Any other key ({@code 007}, {@code abc}) falls back to a hashed
	 * bucket with the id itself as the field, in a separate family of buckets, so {@code 007} and
	 * {@code 7} never meet.
	 */
	NUMERIC,

	/**
	 * For any key: bucket {@code fnv1a32(id) mod bucketCount}, field = the id itself (lossless;
	 * never a hash of the key, whose collisions would overwrite data).
	 */
	HASHED

}
