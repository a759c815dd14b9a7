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
 * How a {@link BucketStore} reads raw values, without a script in the common case: a key is one
 * {@code HGET} of its field, many keys one {@code HMGET} per bucket, all written together (on a
 * cluster, Lettuce sends each node its own). A field that holds the {@link FieldValues#OVERFLOW
 * marker} is followed to its overflow key with a {@code GET} in a second round trip, for those
 * fields only; a key whose field name is too long for a compact hash is read from its overflow key
 * directly. Only when a marker's overflow key is gone (a concurrent write just moved the value
 * back into the field, or the overflow key expired) are field and overflow key read again in one
 * atomic script call. With read-through, the plain key of the same name is read where the
 * namespace has no value. Thread-safe.
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
		if (!location.fieldFits()) {
			return this.redis.call(BinaryCommands.get(location.overflow()), "read", location.key());
		}
		byte[] field = this.redis.call(BinaryCommands.hget(location.bucket(), location.field()), "read", location.key());
		if (!FieldValues.isOverflow(field)) {
			return FieldValues.decode(field);
		}
		byte[] bytes = this.redis.call(BinaryCommands.get(location.overflow()), "read", location.key());
		return (bytes != null) ? bytes : readAtomically(List.of(location)).get(0);
	}

	/**
	 * The raw values of {@code locations}, in the same order, {@code null} where a key has none:
	 * one {@code HMGET} per bucket and a {@code GET} per key whose field name is too long, written
	 * together; then a {@code GET} per marker found, written together.
	 */
	List<byte @Nullable []> readAll(List<Location> locations) {
		if (locations.size() == 1) {
			List<byte @Nullable []> one = new ArrayList<>(1);
			one.add(read(locations.get(0)));
			return one;
		}
		KeyGroups buckets = KeyGroups.by(locations, (i) -> locations.get(i).fieldFits(), Location::bucketName);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<?>> all = new ArrayList<>(buckets.count());
		List<CompletableFuture<List<byte @Nullable []>>> fields = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			List<byte[]> names = new ArrayList<>(positions.length);
			for (int position : positions) {
				names.add(locations.get(position).field());
			}
			fields.add(pipeline.add(BinaryCommands.hmget(locations.get(positions[0]).bucket(), names)));
		}
		all.addAll(fields);
		// a key whose field name is too long for a compact hash lives in its overflow key alone
		List<Integer> overflowOnly = new ArrayList<>(0);
		List<CompletableFuture<byte @Nullable []>> overflowValues = new ArrayList<>(0);
		for (int i = 0; i < locations.size(); i++) {
			if (!locations.get(i).fieldFits()) {
				overflowOnly.add(i);
				overflowValues.add(pipeline.add(BinaryCommands.get(locations.get(i).overflow())));
			}
		}
		all.addAll(overflowValues);
		pipeline.send();
		this.redis.awaitAll(all, "read " + locations.size() + " keys of namespace '" + this.namespace.name() + "'",
				null);
		List<byte @Nullable []> raw = new ArrayList<>(Collections.nCopies(locations.size(), null));
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			List<byte @Nullable []> values = fields.get(bucket).join();
			for (int i = 0; i < positions.length; i++) {
				raw.set(positions[i], values.get(i));
			}
		}
		for (int j = 0; j < overflowOnly.size(); j++) {
			raw.set(overflowOnly.get(j), overflowValues.get(j).join());
		}
		followMarkers(locations, raw);
		if (this.namespace.readThrough()) {
			readPlainKeys(locations, raw);
		}
		return raw;
	}

	/** Replaces each marker in {@code raw} by its overflow key's value, and decodes every field. */
	private void followMarkers(List<Location> locations, List<byte @Nullable []> raw) {
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
			return;
		}
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> values = new ArrayList<>(marked.size());
		for (int i : marked) {
			values.add(pipeline.add(BinaryCommands.get(locations.get(i).overflow())));
		}
		pipeline.send();
		this.redis.awaitAll(values, "read the overflow values of " + marked.size() + " keys", null);
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
		if (!gone.isEmpty()) {
			List<byte @Nullable []> again = readAtomically(gone);
			for (int j = 0; j < gone.size(); j++) {
				raw.set(gonePositions.get(j), again.get(j));
			}
		}
	}

	/** Reads field and overflow key of each location in one atomic step, one script call per bucket. */
	private List<byte @Nullable []> readAtomically(List<Location> locations) {
		KeyGroups buckets = KeyGroups.by(locations, Location::bucketName);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			replies.add(BucketScripts.read(pipeline, buckets.select(bucket, locations)));
		}
		pipeline.send();
		this.redis.awaitAll(replies, "read " + locations.size() + " moving keys of namespace '"
				+ this.namespace.name() + "'", null);
		return buckets.reassemble(replies.stream().map((reply) -> BucketScripts.values(reply.join())).toList());
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
