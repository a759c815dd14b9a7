package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;

/**
 * The byte-level store of one namespace: raw values by logical key, in bucket fields, overflow keys
 * and (with read-through) plain keys. The seam between the typed {@link ShardedTemplate} (and the
 * {@link ShardedMigrator}, {@link BucketScan} and {@link BucketSampler}) and Redis: which commands
 * serve each operation is decided here and in its two parts, {@link BucketReads} and
 * {@link BucketWrites}, and nowhere else, so that replacing a script by plain
 * {@code HGET}/{@code HMGET}/{@code HSET} touches these three classes only.
 * <p>
 * Every method waits for Redis's replies (see {@link CommandChannel#await}) and throws a Spring
 * {@code DataAccessException} on an error or time-out. Thread-safe.
 */
final class BucketStore {

	/** The most characters a long takes in decimal: {@code -9223372036854775808}. */
	private static final int LONGEST_LONG = 20;

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final ServerLimits limits;

	private final KeyPlacement placement;

	private final BucketReads reads;

	private final BucketWrites writes;

	private final SlipcaseObserver observer;

	BucketStore(CommandChannel<byte[], byte[]> redis, @Nullable TransactionLane<byte[], byte[]> transactions,
			ShardedNamespace namespace, ShardLayout layout, ServerLimits limits, SlipcaseObserver observer) {
		this.redis = redis;
		this.observer = observer;
		this.namespace = namespace;
		this.layout = layout;
		this.limits = limits;
		this.placement = new KeyPlacement(namespace, layout, limits.maxValueBytes());
		this.reads = new BucketReads(redis, namespace);
		this.writes = new BucketWrites(redis, (transactions != null) ? new BucketTransactions(transactions, redis, namespace, limits)
				: null, namespace, limits, observer);
	}

	/** Where the store reports overflow writes and memory samples. */
	SlipcaseObserver observer() {
		return this.observer;
	}

	ShardedNamespace namespace() {
		return this.namespace;
	}

	ShardLayout layout() {
		return this.layout;
	}

	ServerLimits limits() {
		return this.limits;
	}

	KeyPlacement placement() {
		return this.placement;
	}

	CommandChannel<byte[], byte[]> redis() {
		return this.redis;
	}

	/**
	 * Where {@code key} lives.
	 * @throws IllegalArgumentException when the key is null or lacks the namespace's key prefix
	 */
	Location locate(String key) {
		return this.placement.locate(key);
	}

	// ---------------------------------------------------------------- reads

	/** The raw value of {@code location}, from its bucket, its overflow key or (read-through) its plain key. */
	byte @Nullable [] get(Location location) {
		return this.reads.read(location);
	}

	/** The raw values of {@code locations}, in the same order, {@code null} where a key has none. */
	List<byte @Nullable []> getAll(List<Location> locations) {
		return this.reads.readAll(locations);
	}

	// ---------------------------------------------------------------- writes

	/** Writes raw values, see {@link BucketWrites#write}; per location whether it was written. */
	boolean[] write(List<Location> locations, List<byte[]> values, boolean nx, TtlMode ttlMode, @Nullable Duration ttl) {
		return this.writes.write(locations, values, nx, ttlMode, ttl);
	}

	/** Writes {@code value} only where the key has no value (with read-through, no plain key either). */
	boolean setIfAbsent(Location location, byte[] value) {
		if (this.namespace.readThrough() && plainKeyExists(location.key())) {
			return false;
		}
		return write(List.of(location), List.of(value), true, TtlMode.CLEAR, null)[0];
	}

	/**
	 * Removes {@code key} (and, with read-through, the plain key of the same name); whether it
	 * existed. The plain key goes first: a delete cut off between its two steps then leaves the
	 * key's own value, never the plain key's older one, which reads would fall back to.
	 */
	boolean delete(String key) {
		Location location = locate(key);
		boolean deleted = false;
		if (this.namespace.readThrough()) {
			deleted = this.redis.call(BinaryCommands.del(KeyPlacement.bytes(key)), "delete the plain key", key) == 1;
		}
		deleted |= BucketScripts.existed(alone((pipeline) -> BucketScripts.delete(pipeline, List.of(location)),
				"delete", key), 0);
		return deleted;
	}

	/**
	 * Adds {@code delta} to the decimal number under {@code key} where it lives; the new value as
	 * text. A whole-number increment of a field in a numeric bucket is one {@code HINCRBY} (when the
	 * server keeps values of 20 bytes, the longest a long takes, in a compact hash, and the namespace
	 * has no bucket TTL); everything else, and a field that holds the overflow marker, goes through
	 * the increment script, which never lets the bucket leave its compact encoding. Each command is
	 * sent at most once: an increment whose reply was lost fails with an
	 * {@link dev.slipcase.redis.lettuce.UnacknowledgedWriteException} and is never applied twice.
	 * @throws BucketFullException when the key is new and its hashed bucket is full
	 */
	String increment(String key, String delta, boolean floating) {
		Location location = locate(key);
		copyPlainValueWhenReadThrough(location);
		if (!location.fieldFits()) {
			return floating
					? Double.toString(this.redis.call(BinaryCommands.incrbyfloat(location.overflow(), Double.parseDouble(delta)),
							"increment", key))
					: Long.toString(this.redis.call(BinaryCommands.incrby(location.overflow(), Long.parseLong(delta)),
							"increment", key));
		}
		int entryLimit = this.writes.entryLimit(location);
		if (!floating && entryLimit == 0 && this.limits.maxValueBytes() >= LONGEST_LONG
				&& this.writes.bucketTtlMillis() == 0) {
			Long value = incrementField(location, Long.parseLong(delta));
			if (value != null) {
				return Long.toString(value);
			}
		}
		String value = BucketScripts.incremented(alone((pipeline) -> BucketScripts.increment(pipeline, location,
				entryLimit, delta, floating, this.writes.bucketTtlMillis(), this.limits), "increment", key));
		if (value == null) {
			throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + key + " not incremented "
					+ "because its hashed bucket " + location.bucketName() + " holds hash-max-listpack-entries ("
					+ this.limits.maxEntries() + ") fields already.");
		}
		return value;
	}

	/**
	 * {@code HINCRBY} of the field: the new value, or {@code null} when Redis refused because the
	 * field holds no integer (the overflow marker, say): then nothing changed.
	 */
	private @Nullable Long incrementField(Location location, long delta) {
		CompletableFuture<Long> reply = this.redis.send(BinaryCommands.hincrby(location.bucket(), location.field(), delta));
		try {
			return this.redis.await(reply, "increment", location.key());
		}
		catch (RedisSystemException ex) {
			if (ex.getCause() instanceof RedisCommandExecutionException) {
				return null;
			}
			throw ex;
		}
	}

	/**
	 * With read-through: copies a plain key's value and TTL to its new place before it is changed in
	 * place (an increment, a TTL change), only while the plain key still holds that value (on a
	 * cluster, where the two are in different slots, without that check); without, does nothing.
	 */
	private void copyPlainValueWhenReadThrough(Location location) {
		if (!this.namespace.readThrough() || this.reads.readOwn(location) != null) {
			return;
		}
		byte[] plainKey = KeyPlacement.bytes(location.key());
		byte[] plain = this.redis.call(BinaryCommands.get(plainKey), "read the plain key", location.key());
		if (plain != null) {
			long ttl = this.redis.call(BinaryCommands.pttl(plainKey), "read the TTL of", location.key());
			this.writes.copyPlainValue(location, plainKey, plain, (ttl > 0) ? TtlMode.SET : TtlMode.CLEAR,
					(ttl > 0) ? Duration.ofMillis(ttl) : null);
		}
	}

	// ---------------------------------------------------------------- TTLs

	/** The remaining TTL of {@code key} in milliseconds, as {@link ShardedTemplate#ttlMillis} describes it. */
	long ttlMillis(String key) {
		Location location = locate(key);
		Place place = place(location);
		long ttl = switch (place) {
			case ABSENT -> -2;
			case OVERFLOW -> this.redis.call(BinaryCommands.pttl(location.overflow()), "read the TTL of", key);
			case BUCKET -> fieldTtl(location);
		};
		if (ttl == -1 && place == Place.BUCKET && this.writes.bucketTtlMillis() > 0) {
			return this.redis.call(BinaryCommands.pttl(location.bucket()), "read the TTL of bucket", location.bucketName());
		}
		if (ttl == -2 && this.namespace.readThrough()) {
			return this.redis.call(BinaryCommands.pttl(KeyPlacement.bytes(key)), "read the TTL of the plain key", key);
		}
		return ttl;
	}

	/**
	 * Sets a TTL on an existing key, as {@link ShardedTemplate#expire} describes it: one script,
	 * so that a write racing it (a set, an increment, a delete) is never undone by a write-back of
	 * what was read before it.
	 */
	boolean expire(String key, Duration ttl) {
		Location location = locate(key);
		copyPlainValueWhenReadThrough(location);
		boolean mayMove = this.namespace.ttlFallback() == TtlFallback.PLAIN_KEY;
		long reply = alone((pipeline) -> BucketScripts.expire(pipeline, location, ttl.toMillis(),
				this.writes.bucketTtlMillis(), this.limits, mayMove), "expire", key);
		if (reply == -1) {
			throw this.writes.ttlRefused();
		}
		return reply == 1;
	}

	/**
	 * Removes the TTL of {@code key}; whether it had one. One script, so that the TTL of a value
	 * written after the call looked is never the one removed.
	 */
	boolean persist(String key) {
		Location location = locate(key);
		copyPlainValueWhenReadThrough(location);
		return alone((pipeline) -> BucketScripts.persist(pipeline, location, this.limits), "persist", key) == 1;
	}

	/** Where a key's value is right now. */
	private enum Place {

		BUCKET, OVERFLOW, ABSENT

	}

	private Place place(Location location) {
		if (location.fieldFits()) {
			byte[] field = this.redis.call(BinaryCommands.hget(location.bucket(), location.field()), "look up",
					location.key());
			if (field == null) {
				return Place.ABSENT;
			}
			if (!FieldValues.isOverflow(field)) {
				return Place.BUCKET;
			}
		}
		return (this.redis.call(BinaryCommands.exists(location.overflow()), "look up", location.key()) > 0)
				? Place.OVERFLOW : Place.ABSENT;
	}

	private long fieldTtl(Location location) {
		if (!this.limits.fieldExpiry()) {
			return -1;
		}
		List<Long> reply = this.redis.call(BinaryCommands.hpttl(location.bucket(), location.field()), "read the TTL of",
				location.key());
		return reply.isEmpty() ? -2 : reply.get(0);
	}

	// ---------------------------------------------------------------- plain keys

	/** Whether the plain key {@code key} exists. */
	boolean plainKeyExists(String key) {
		return this.redis.call(BinaryCommands.exists(KeyPlacement.bytes(key)), "look up the plain key", key) > 0;
	}

	/**
	 * The values and TTLs of plain keys, read together; a key that cannot be read as a string (a
	 * list, say) has a {@code null} value.
	 */
	List<PlainValue> readPlainKeys(List<byte[]> keys) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> values = new ArrayList<>(keys.size());
		List<CompletableFuture<Long>> ttls = new ArrayList<>(keys.size());
		for (byte[] key : keys) {
			values.add(pipeline.add(BinaryCommands.get(key)));
			ttls.add(pipeline.add(BinaryCommands.pttl(key)));
		}
		pipeline.send();
		List<CompletableFuture<?>> all = new ArrayList<>(values);
		all.addAll(ttls);
		this.redis.awaitSettled(all, "read " + keys.size() + " plain keys", null);
		this.redis.awaitAll(ttls, "read the TTLs of " + keys.size() + " plain keys", null);
		List<PlainValue> read = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			CompletableFuture<byte @Nullable []> value = values.get(i);
			read.add(new PlainValue(keys.get(i), value.isCompletedExceptionally() ? null : value.join(), ttls.get(i).join()));
		}
		return read;
	}

	/**
	 * Deletes each plain key only while it still holds the value given for it, in one script call
	 * per key, pipelined.
	 * @return per key whether it was deleted
	 */
	boolean[] deletePlainKeysIfUnchanged(List<PlainValue> plainValues) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<Long>> deletes = new ArrayList<>(plainValues.size());
		for (PlainValue plain : plainValues) {
			deletes.add(BucketScripts.deleteIfValue(pipeline, plain.key(), plain.value()));
		}
		pipeline.send();
		this.redis.awaitAll(deletes, "delete " + deletes.size() + " migrated plain keys", null);
		boolean[] deleted = new boolean[deletes.size()];
		for (int i = 0; i < deleted.length; i++) {
			deleted[i] = deletes.get(i).join() == 1;
		}
		return deleted;
	}

	/**
	 * A plain key with its value and TTL.
	 *
	 * @param key the key
	 * @param value the value, {@code null} when there is none or it is not a string
	 * @param ttlMillis the TTL as {@code PTTL} gives it
	 */
	record PlainValue(byte[] key, byte @Nullable [] value, long ttlMillis) {
	}

	/** Sends one call alone and waits for its reply. */
	private <T> T alone(Function<Pipeline<byte[], byte[]>, CompletableFuture<T>> call, String action, String key) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		CompletableFuture<T> reply = call.apply(pipeline);
		pipeline.send();
		return this.redis.await(reply, action, key);
	}

}
