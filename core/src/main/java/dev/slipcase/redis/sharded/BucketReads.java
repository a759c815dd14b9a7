package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.ValueReads;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link BucketStore} reads raw values, without a script in the common case: a key is one
 * {@code HGET} of its field, many keys one {@code HMGET} per bucket (an {@code HGET} for a bucket of
 * one of them), all written together as one {@link ValueReads} (on a cluster, one per node). A field
 * that holds the {@link FieldValues#OVERFLOW marker} is followed to its overflow key with a
 * {@code GET} in a second round trip, for those fields only; a key whose field name is too long for
 * a compact hash is read from its overflow key directly. Only when a marker's overflow key is gone (a concurrent write just moved the value
 * back into the field, or the overflow key expired) are field and overflow key read again in one
 * atomic script call. With read-through, the plain key of the same name is read where the
 * namespace has no value. Every read is asynchronous: its turns are the {@link CallSteps} given,
 * each sent when the replies of the one before are in. Thread-safe.
 */
final class BucketReads {

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	BucketReads(CommandChannel<byte[], byte[]> redis, ShardedNamespace namespace) {
		this.redis = redis;
		this.namespace = namespace;
	}

	/** The raw value of a location, from its bucket, its overflow key or (read-through) its plain key. */
	CompletableFuture<byte @Nullable []> read(CallSteps steps, Location location) {
		CompletableFuture<byte @Nullable []> own = readOwn(steps, location);
		if (!this.namespace.readThrough()) {
			return own;
		}
		return own.thenCompose((bytes) -> (bytes != null) ? CompletableFuture.completedFuture(bytes)
				: steps.send(this.redis, BinaryCommands.get(KeyPlacement.bytes(location.key()))));
	}

	/** The raw value of a location, from its bucket or its overflow key. */
	CompletableFuture<byte @Nullable []> readOwn(CallSteps steps, Location location) {
		if (!location.fieldFits()) {
			return steps.send(this.redis, BinaryCommands.get(location.overflow()));
		}
		return steps.send(this.redis, BinaryCommands.hget(location.bucket(), location.field()))
			.thenCompose((field) -> {
				if (!FieldValues.isOverflow(field)) {
					return CompletableFuture.completedFuture(FieldValues.decode(field));
				}
				return steps.send(this.redis, BinaryCommands.get(location.overflow()))
					.thenCompose((bytes) -> (bytes != null) ? CompletableFuture.completedFuture(bytes)
							: readAtomically(steps, List.of(location)).thenApply((values) -> values.get(0)));
			});
	}

	/**
	 * The raw values of {@code locations}, in the same order, {@code null} where a key has none:
	 * an {@code HGET} per bucket of one key and an {@code HMGET} per bucket of several, and a
	 * {@code GET} per key whose field name is too long, written together; then a {@code GET} per
	 * marker found, written together.
	 */
	CompletableFuture<List<byte @Nullable []>> readAll(CallSteps steps, List<Location> locations) {
		if (locations.size() == 1) {
			return read(steps, locations.get(0)).thenApply((value) -> {
				List<byte @Nullable []> one = new ArrayList<>(1);
				one.add(value);
				return one;
			});
		}
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> locations.get(i).fieldFits(), Location::bucketId);
		int overflowOnly = 0;
		for (Location location : locations) {
			overflowOnly += location.fieldFits() ? 0 : 1;
		}
		ValueReads reads = ValueReads.of(buckets.count() + overflowOnly, locations.size());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			byte[] bucketKey = locations.get(positions[0]).bucket();
			if (positions.length == 1) {
				// a bucket of one key: the usual case of a call over many buckets
				reads.hget(bucketKey, locations.get(positions[0]).field(), positions[0]);
				continue;
			}
			byte[][] names = new byte[positions.length][];
			for (int i = 0; i < positions.length; i++) {
				names[i] = locations.get(positions[i]).field();
			}
			reads.hmget(bucketKey, names, positions);
		}
		// a key whose field name is too long for a compact hash lives in its overflow key alone
		for (int i = 0; i < locations.size(); i++) {
			if (!locations.get(i).fieldFits()) {
				reads.get(locations.get(i).overflow(), i);
			}
		}
		return send(steps, reads, () -> "read " + locations.size() + " keys of namespace '" + this.namespace.name() + "'")
			.thenCompose((raw) -> followMarkers(steps, locations, raw))
			.thenCompose((raw) -> this.namespace.readThrough() ? readPlainKeys(steps, locations, raw)
					: CompletableFuture.completedFuture(raw));
	}

	/** Sends {@code reads} as a turn of {@code steps}; a failure is translated, saying what was being done. */
	private CompletableFuture<List<byte @Nullable []>> send(CallSteps steps, ValueReads reads, Supplier<String> action) {
		CompletableFuture<List<byte @Nullable []>> values = steps.send(() -> reads.send(this.redis));
		return this.redis.all(List.of(values), action).thenApply((done) -> values.join());
	}

	/** {@code raw} with each marker replaced by its overflow key's value, and every field decoded. */
	private CompletableFuture<List<byte @Nullable []>> followMarkers(CallSteps steps, List<Location> locations,
			List<byte @Nullable []> raw) {
		List<Integer> marked = new ArrayList<>(0);
		for (int i = 0; i < raw.size(); i++) {
			if (!locations.get(i).fieldFits()) {
				continue;
			}
			if (FieldValues.isOverflow(raw.get(i))) {
				marked.add(i);
			}
			else {
				raw.set(i, FieldValues.decode(raw.get(i)));
			}
		}
		if (marked.isEmpty()) {
			return CompletableFuture.completedFuture(raw);
		}
		ValueReads reads = ValueReads.of(marked.size(), marked.size());
		for (int j = 0; j < marked.size(); j++) {
			reads.get(locations.get(marked.get(j)).overflow(), j);
		}
		return send(steps, reads, () -> "read the overflow values of " + marked.size() + " keys")
			.thenCompose((values) -> {
				List<Location> gone = new ArrayList<>();
				List<Integer> gonePositions = new ArrayList<>();
				for (int j = 0; j < marked.size(); j++) {
					byte[] value = values.get(j);
					raw.set(marked.get(j), value);
					if (value == null) {
						gone.add(locations.get(marked.get(j)));
						gonePositions.add(marked.get(j));
					}
				}
				if (gone.isEmpty()) {
					return CompletableFuture.completedFuture(raw);
				}
				return readAtomically(steps, gone).thenApply((again) -> {
					for (int j = 0; j < gone.size(); j++) {
						raw.set(gonePositions.get(j), again.get(j));
					}
					return raw;
				});
			});
	}

	/** Reads field and overflow key of each location in one atomic step, one script call per bucket. */
	private CompletableFuture<List<byte @Nullable []>> readAtomically(CallSteps steps, List<Location> locations) {
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> true, Location::bucketId);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			replies.add(BucketScripts.read(pipeline, buckets.select(bucket, locations)));
		}
		steps.send(pipeline, replies);
		return this.redis.all(replies, () -> "read " + locations.size() + " moving keys of namespace '"
				+ this.namespace.name() + "'")
			.thenApply((done) -> buckets
				.reassemble(replies.stream().map((reply) -> BucketScripts.values(reply.join())).toList()));
	}

	/** With read-through: {@code raw} with the plain key of the same name read for every location without a value. */
	private CompletableFuture<List<byte @Nullable []>> readPlainKeys(CallSteps steps, List<Location> locations,
			List<byte @Nullable []> raw) {
		int missing = 0;
		for (byte[] value : raw) {
			missing += (value == null) ? 1 : 0;
		}
		if (missing == 0) {
			return CompletableFuture.completedFuture(raw);
		}
		ValueReads reads = ValueReads.of(missing, raw.size());
		for (int i = 0; i < raw.size(); i++) {
			if (raw.get(i) == null) {
				reads.get(KeyPlacement.bytes(locations.get(i).key()), i);
			}
		}
		int plainKeys = missing;
		return send(steps, reads, () -> "read " + plainKeys + " plain keys").thenApply((found) -> {
			fillGaps(raw, found);
			return raw;
		});
	}

	private static void fillGaps(List<byte @Nullable []> raw, List<byte @Nullable []> found) {
		for (int i = 0; i < raw.size(); i++) {
			if (raw.get(i) == null) {
				raw.set(i, found.get(i));
			}
		}
	}

}
