package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link BucketStore} reads raw values: one key with {@code HGET} (then, on a miss, field and
 * overflow key again in one script, in case a concurrent write just moved the value); many keys in
 * one script call on a standalone server, or one {@code HMGET} per bucket, pipelined, on any
 * server; and, with read-through, the plain key of the same name where the namespace has no value.
 * Thread-safe.
 */
final class BucketReads {

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	BucketReads(CommandChannel<byte[], byte[]> redis, ShardedNamespace namespace) {
		this.redis = redis;
		this.namespace = namespace;
	}

	/** The raw value of a location, from its bucket, its overflow key or (read-through) its plain key. */
	byte @Nullable [] read(Location location) {
		byte[] bytes = readOwn(location);
		if (bytes == null && this.namespace.readThrough()) {
			bytes = this.redis.call(BinaryCommands.get(KeyPlacement.bytes(location.key())), "read the plain key",
					location.key());
		}
		return bytes;
	}

	/** The raw value of a location, from its bucket or its overflow key. */
	byte @Nullable [] readOwn(Location location) {
		byte[] bytes = null;
		if (location.fieldFits()) {
			bytes = this.redis.call(BinaryCommands.hget(location.bucket(), location.field()), "read", location.key());
		}
		if (bytes == null) {
			// not in the bucket: read field and overflow key again in one atomic step, in case a
			// concurrent write just moved the value between them
			Pipeline<byte[], byte[]> alone = this.redis.pipeline();
			CompletableFuture<List<Object>> reply = BucketScripts.read(alone, List.of(location));
			alone.send();
			bytes = BucketScripts.values(this.redis.await(reply, "read", location.key())).get(0);
		}
		return bytes;
	}

	/**
	 * The raw values of {@code locations}, in the same order, {@code null} where a key has none. On
	 * a standalone server, one script call reads them all; on a cluster, one {@code HMGET} per
	 * bucket, written together, then one script call per bucket with misses for their overflow keys.
	 */
	List<byte @Nullable []> readAll(List<Location> locations, boolean standalone) {
		List<byte @Nullable []> raw = (standalone && locations.size() > 1) ? readAtOnce(locations)
				: readByBucket(locations);
		if (this.namespace.readThrough()) {
			readPlainKeys(locations, raw);
		}
		return raw;
	}

	/** Standalone: one script call reads every key, one HMGET per bucket, then the misses' overflow keys. */
	private List<byte @Nullable []> readAtOnce(List<Location> locations) {
		KeyGroups buckets = KeyGroups.by(locations, Location::bucketName);
		List<List<Location>> groups = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			groups.add(buckets.select(bucket, locations));
		}
		Pipeline<byte[], byte[]> alone = this.redis.pipeline();
		CompletableFuture<List<Object>> reply = BucketScripts.readMany(alone, groups);
		alone.send();
		List<byte @Nullable []> values = BucketScripts.values(this.redis.await(reply, "read " + locations.size()
				+ " keys of namespace '" + this.namespace.name() + "'", null));
		List<List<byte @Nullable []>> perBucket = new ArrayList<>(groups.size());
		int from = 0;
		for (List<Location> group : groups) {
			perBucket.add(values.subList(from, from + group.size()));
			from += group.size();
		}
		return buckets.reassemble(perBucket);
	}

	/** Any server: one HMGET per bucket, sent together, then the misses' overflow keys per bucket. */
	private List<byte @Nullable []> readByBucket(List<Location> locations) {
		KeyGroups buckets = KeyGroups.by(locations, (i) -> locations.get(i).fieldFits(), Location::bucketName);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<List<byte @Nullable []>>> replies = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			List<Location> group = buckets.select(bucket, locations);
			replies.add(pipeline.add(BinaryCommands.hmget(group.get(0).bucket(),
					group.stream().map(Location::field).toList())));
		}
		pipeline.send();
		this.redis.awaitAll(replies, "read " + locations.size() + " keys of namespace '" + this.namespace.name() + "'",
				null);
		List<byte @Nullable []> raw = buckets.reassemble(replies.stream().map(CompletableFuture::join).toList());
		readMisses(locations, raw);
		return raw;
	}

	/** Reads field and overflow key of every location without a value yet, one script call per bucket. */
	private void readMisses(List<Location> locations, List<byte @Nullable []> raw) {
		KeyGroups misses = KeyGroups.by(locations, (i) -> raw.get(i) == null, Location::bucketName);
		if (misses.count() == 0) {
			return;
		}
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>(misses.count());
		for (int bucket = 0; bucket < misses.count(); bucket++) {
			replies.add(BucketScripts.read(pipeline, misses.select(bucket, locations)));
		}
		pipeline.send();
		this.redis.awaitAll(replies, "read the overflow values of " + locations.size() + " keys", null);
		fillGaps(raw, misses.reassemble(replies.stream().map((reply) -> BucketScripts.values(reply.join())).toList()));
	}

	/** With read-through: the plain key of the same name of every location without a value. */
	private void readPlainKeys(List<Location> locations, List<byte @Nullable []> raw) {
		List<Integer> missing = new ArrayList<>();
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> reads = new ArrayList<>();
		for (int i = 0; i < raw.size(); i++) {
			if (raw.get(i) == null) {
				missing.add(i);
				reads.add(pipeline.add(BinaryCommands.get(KeyPlacement.bytes(locations.get(i).key()))));
			}
		}
		pipeline.send();
		this.redis.awaitAll(reads, "read " + reads.size() + " plain keys", null);
		List<byte @Nullable []> found = new ArrayList<>(Collections.nCopies(raw.size(), null));
		for (int j = 0; j < missing.size(); j++) {
			found.set(missing.get(j), reads.get(j).join());
		}
		fillGaps(raw, found);
	}

	private static void fillGaps(List<byte @Nullable []> raw, List<byte @Nullable []> found) {
		for (int i = 0; i < raw.size(); i++) {
			if (raw.get(i) == null) {
				raw.set(i, found.get(i));
			}
		}
	}

}
