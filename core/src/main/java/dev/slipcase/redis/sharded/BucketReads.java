package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link BucketStore} reads raw values, without a script in the common case: a key is one
 * {@code HGET} of its field, many keys one {@code HMGET} per bucket (an {@code HGET} for a bucket of
 * one of them), all written together (on a cluster, Lettuce sends each node its own). A field that holds the {@link FieldValues#OVERFLOW
 * marker} is followed to its overflow key with a {@code GET} in a second round trip, for those
 * fields only; a key whose field name is too long for a compact hash is read from its overflow key
 * directly. Only when a marker's overflow key is gone (a concurrent write just moved the value
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
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<?>> all = new ArrayList<>(buckets.count());
		// per bucket, an HGET's value (a bucket of one key: the usual case of a call over many buckets)
		// or an HMGET's values
		List<CompletableFuture<?>> fields = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			byte[] bucketKey = locations.get(positions[0]).bucket();
			if (positions.length == 1) {
				fields.add(pipeline.submit(BinaryCommands.hget(bucketKey, locations.get(positions[0]).field())));
				continue;
			}
			List<byte[]> names = new ArrayList<>(positions.length);
			for (int position : positions) {
				names.add(locations.get(position).field());
			}
			fields.add(pipeline.submit(BinaryCommands.hmget(bucketKey, names)));
		}
		all.addAll(fields);
		// a key whose field name is too long for a compact hash lives in its overflow key alone
		List<Integer> overflowOnly = new ArrayList<>(0);
		List<CompletableFuture<byte @Nullable []>> overflowValues = new ArrayList<>(0);
		for (int i = 0; i < locations.size(); i++) {
			if (!locations.get(i).fieldFits()) {
				overflowOnly.add(i);
				overflowValues.add(pipeline.submit(BinaryCommands.get(locations.get(i).overflow())));
			}
		}
		all.addAll(overflowValues);
		steps.send(pipeline, all);
		return this.redis.all(all, () -> "read " + locations.size() + " keys of namespace '" + this.namespace.name() + "'")
			.thenCompose((done) -> {
				List<byte @Nullable []> raw = new ArrayList<>(Collections.nCopies(locations.size(), null));
				for (int bucket = 0; bucket < buckets.count(); bucket++) {
					int[] positions = buckets.positions(bucket);
					Object reply = fields.get(bucket).join();
					if (positions.length == 1) {
						raw.set(positions[0], (byte[]) reply);
						continue;
					}
					List<?> values = (List<?>) reply;
					for (int i = 0; i < positions.length; i++) {
						raw.set(positions[i], (byte[]) values.get(i));
					}
				}
				for (int j = 0; j < overflowOnly.size(); j++) {
					raw.set(overflowOnly.get(j), overflowValues.get(j).join());
				}
				return followMarkers(steps, locations, raw);
			})
			.thenCompose((raw) -> this.namespace.readThrough() ? readPlainKeys(steps, locations, raw)
					: CompletableFuture.completedFuture(raw));
	}

	/** {@code raw} with each marker replaced by its overflow key's value, and every field decoded. */
	private CompletableFuture<List<byte @Nullable []>> followMarkers(CallSteps steps, List<Location> locations,
			List<byte @Nullable []> raw) {
		List<Integer> marked = new ArrayList<>();
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
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> values = new ArrayList<>(marked.size());
		for (int i : marked) {
			values.add(pipeline.submit(BinaryCommands.get(locations.get(i).overflow())));
		}
		steps.send(pipeline, values);
		return this.redis.all(values, () -> "read the overflow values of " + marked.size() + " keys")
			.thenCompose((done) -> {
				List<Location> gone = new ArrayList<>();
				List<Integer> gonePositions = new ArrayList<>();
				for (int j = 0; j < marked.size(); j++) {
					byte[] value = values.get(j).join();
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
		List<Integer> missing = new ArrayList<>();
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> reads = new ArrayList<>();
		for (int i = 0; i < raw.size(); i++) {
			if (raw.get(i) == null) {
				missing.add(i);
				reads.add(pipeline.submit(BinaryCommands.get(KeyPlacement.bytes(locations.get(i).key()))));
			}
		}
		if (reads.isEmpty()) {
			return CompletableFuture.completedFuture(raw);
		}
		steps.send(pipeline, reads);
		return this.redis.all(reads, () -> "read " + reads.size() + " plain keys").thenApply((done) -> {
			List<byte @Nullable []> found = new ArrayList<>(Collections.nCopies(raw.size(), null));
			for (int j = 0; j < missing.size(); j++) {
				found.set(missing.get(j), reads.get(j).join());
			}
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
