package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;

/**
 * Samples what a namespace's buckets cost in Redis: their encoding ({@code OBJECT ENCODING}),
 * fill ({@code HLEN}) and {@code MEMORY USAGE}, pipelined, and reports each sample to
 * {@link SlipcaseObservers#current()}. Overflow keys are not part of a sample. Thread-safe.
 */
final class BucketSampler {

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final ServerLimits limits;

	private final BucketScan scan;

	private final SlipcaseObserver observer;

	BucketSampler(BucketStore store, BucketScan scan) {
		this.redis = store.redis();
		this.namespace = store.namespace();
		this.layout = store.layout();
		this.limits = store.limits();
		this.scan = scan;
		this.observer = store.observer();
	}

	/** Samples up to {@code maxBuckets} buckets, see {@link ShardedTemplate#memoryReport(int)}. */
	BucketMemoryReport sample(int maxBuckets) {
		List<String> names = this.scan.bucketNames(maxBuckets);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<String>> encodings = new ArrayList<>();
		List<CompletableFuture<Long>> lengths = new ArrayList<>();
		List<CompletableFuture<Long>> usages = new ArrayList<>();
		for (String name : names) {
			byte[] key = KeyPlacement.bytes(name);
			encodings.add(pipeline.submit(BinaryCommands.objectEncoding(key)));
			lengths.add(pipeline.submit(BinaryCommands.hlen(key)));
			usages.add(pipeline.submit(BinaryCommands.memoryUsage(key)));
		}
		pipeline.send();
		List<CompletableFuture<?>> all = new ArrayList<>(encodings);
		all.addAll(lengths);
		all.addAll(usages);
		this.redis.awaitAll(all, "sample " + names.size() + " buckets of namespace '" + this.namespace.name() + "'", null);
		int compact = 0;
		List<String> flipped = new ArrayList<>();
		long fields = 0;
		long bytes = 0;
		double fill = 0;
		int capacity = Math.max(1, (int) Math.floor(this.limits.maxEntries() * this.namespace.fillFactor()));
		String hashedBucketPrefix = this.namespace.ownedKeyPrefix() + "h:";
		for (int i = 0; i < names.size(); i++) {
			String encoding = encodings.get(i).join();
			// listpackex: a listpack with hash-field TTLs (Redis 7.4+), still compact
			if ("listpack".equals(encoding) || "listpackex".equals(encoding) || "ziplist".equals(encoding)) {
				compact++;
			}
			else if (encoding != null) {
				flipped.add(names.get(i));
			}
			Long length = lengths.get(i).join();
			Long usage = usages.get(i).join();
			fields += (length != null) ? length : 0;
			bytes += (usage != null) ? usage : 0;
			int bucketCapacity = names.get(i).startsWith(hashedBucketPrefix) ? capacity : this.layout.bucketSize();
			fill += (length != null) ? (double) length / bucketCapacity : 0;
		}
		BucketMemoryReport report = new BucketMemoryReport(this.namespace.name(), names.size(), compact, flipped.size(),
				flipped, fields, bytes, (fields > 0) ? (double) bytes / fields : 0, names.isEmpty() ? 0 : fill / names.size());
		this.observer.memoryReported(report.namespace(), report.sampledBuckets(), report.flippedBuckets());
		return report;
	}

}
