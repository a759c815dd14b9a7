package dev.slipcase.redis.sharded;

import java.util.List;

/**
 * What a sample of a namespace's buckets costs in Redis, from {@link ShardedTemplate#memoryReport(int)}.
 *
 * @param namespace the namespace's name
 * @param sampledBuckets how many buckets were sampled
 * @param compactBuckets how many of them are in the compact encoding ({@code listpack}, {@code listpackex} with field TTLs, {@code ziplist} on 6.2)
 * @param flippedBuckets how many left the compact encoding ({@code hashtable}); should be 0
 * @param flippedBucketKeys the keys of the flipped buckets sampled, never {@code null}
 * @param fields the number of fields (logical keys) in the sampled buckets
 * @param bytes the sum of {@code MEMORY USAGE} of the sampled buckets
 * @param bytesPerKey {@code bytes / fields}, 0 when there are none
 * @param averageFill the mean share of a bucket's intended capacity in use
 */
public record BucketMemoryReport(String namespace, int sampledBuckets, int compactBuckets, int flippedBuckets,
		List<String> flippedBucketKeys, long fields, long bytes, double bytesPerKey, double averageFill) {

	public BucketMemoryReport {
		flippedBucketKeys = List.copyOf(flippedBucketKeys);
	}

}
