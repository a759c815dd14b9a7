package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.RedisFailures;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The byte-level store of one namespace: raw values by logical key, in bucket fields, overflow keys
 * and (with read-through) plain keys. The seam between the typed {@link ShardedTemplate} (and the
 * {@link ShardedMigrator}, {@link BucketScan} and {@link BucketSampler}) and Redis: which commands
 * serve each operation is decided here and in its two parts, {@link BucketReads} and
 * {@link BucketWrites}, and nowhere else, so that replacing a script by plain
 * {@code HGET}/{@code HMGET}/{@code HSET} touches these three classes only.
 * <p>
 * Every read and write is one asynchronous call: it sends its commands in turns ({@link CallSteps}),
 * and its future completes with the outcome or fails with a Spring {@code DataAccessException} (or
 * the store's own exceptions); cancelling the future gives the call up, so nothing is written after
 * its caller stopped waiting. The blocking {@link ShardedTemplate} waits for these futures, the
 * reactive one subscribes to them: one set of commands for both. The migrator's plain-key helpers
 * wait for their replies. A write takes ownership of its encoded values and releases each once its
 * call is done. Thread-safe.
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

	private final CallNames callNames;

	BucketStore(CommandChannel<byte[], byte[]> redis, @Nullable TransactionLane transactions,
			ShardedNamespace namespace, KeyPlacement placement, ServerLimits limits, BucketFill fill,
			SlipcaseObserver observer) {
		this.redis = redis;
		this.observer = observer;
		this.namespace = namespace;
		this.layout = placement.layout();
		this.limits = limits;
		this.callNames = CallNames.of(namespace.name());
		this.placement = placement;
		this.reads = new BucketReads(redis, namespace);
		this.writes = new BucketWrites(redis, (transactions != null) ? new BucketTransactions(transactions, redis, namespace, limits)
				: null, namespace, limits, fill, observer);
	}

	/** Where the store reports overflow writes and memory samples. */
	SlipcaseObserver observer() {
		return this.observer;
	}

	ShardedNamespace namespace() {
		return this.namespace;
	}

	/** What each call does, in words naming the namespace, for failure messages. */
	CallNames callNames() {
		return this.callNames;
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
	CompletableFuture<byte @Nullable []> get(Location location) {
		CallSteps steps = new CallSteps();
		return steps.result(this.reads.read(steps, location));
	}

	/** The raw values of {@code locations}, in the same order, {@code null} where a key has none. */
	CompletableFuture<List<byte @Nullable []>> getAll(List<Location> locations) {
		CallSteps steps = new CallSteps();
		return steps.result(this.reads.readAll(steps, locations));
	}

	// ---------------------------------------------------------------- writes

	/**
	 * Writes encoded values, see {@link BucketWrites#write}; per location whether it was written.
	 * Ownership of {@code values} is transferred to this method: each is released once the call is
	 * done, however it ends, also when this throws.
	 * @throws UnsupportedOperationException when the TTL asked for is refused; nothing is sent then
	 */
	CompletableFuture<boolean[]> write(List<Location> locations, List<EncodedValue> values, boolean nx,
			TtlMode ttlMode, @Nullable Duration ttl) {
		return releasingWhenDone(values, (steps) -> this.writes.write(steps, locations, values, nx, ttlMode, ttl));
	}

	/**
	 * Writes {@code value} only where the key has no value (with read-through, no plain key either).
	 * Ownership of {@code value} is transferred to this method, as for {@link #write}.
	 */
	CompletableFuture<Boolean> setIfAbsent(Location location, EncodedValue value) {
		return releasingWhenDone(List.of(value), (steps) -> {
			CompletableFuture<Boolean> plainKeyExists = this.namespace.readThrough()
					? steps.send(this.redis, BinaryCommands.exists(KeyPlacement.bytes(location.key())))
						.thenApply((count) -> count > 0)
					: CompletableFuture.completedFuture(false);
			return plainKeyExists.thenCompose((exists) -> exists ? CompletableFuture.completedFuture(false)
					: this.writes.write(steps, List.of(location), List.of(value), true, TtlMode.CLEAR, null)
						.thenApply((written) -> written[0]));
		});
	}

	/**
	 * The outcome of the call {@code call} makes on new steps, which writes {@code values}: each is
	 * released once the call is done, before its outcome completes (its last turn settled, or the
	 * caller gave it up), or when {@code call} throws. A block still able to write a value keeps it
	 * pinned until it is done.
	 */
	private static <T> CompletableFuture<T> releasingWhenDone(List<EncodedValue> values,
			Function<CallSteps, CompletableFuture<T>> call) {
		CallSteps steps = new CallSteps();
		CompletableFuture<T> last;
		try {
			last = call.apply(steps);
		}
		catch (RuntimeException | Error ex) {
			values.forEach(EncodedValue::release);
			throw ex;
		}
		return steps.result(last, () -> values.forEach(EncodedValue::release));
	}

	/**
	 * Removes {@code key} (and, with read-through, the plain key of the same name); whether it
	 * existed. The plain key goes first: a delete cut off between its two steps then leaves the
	 * key's own value, never the plain key's older one, which reads would fall back to.
	 */
	CompletableFuture<Boolean> delete(String key) {
		Location location = locate(key);
		CallSteps steps = new CallSteps();
		CompletableFuture<Boolean> plainDeleted = this.namespace.readThrough()
				? steps.send(this.redis, BinaryCommands.del(KeyPlacement.bytes(key)))
					.thenApply((count) -> count == 1)
				: CompletableFuture.completedFuture(false);
		return steps.result(plainDeleted.thenCompose((deleted) -> script(steps,
				(pipeline) -> BucketScripts.delete(pipeline, List.of(location)))
			.thenApply((reply) -> deleted | BucketScripts.existed(reply, 0))));
	}

	/**
	 * Adds {@code delta} to the decimal number under {@code key} where it lives; the new value as
	 * text. A whole-number increment of a field is one {@code HINCRBY} (when the server keeps values
	 * of 20 bytes, the longest a long takes, in a compact hash, and the namespace has no bucket TTL),
	 * in a hashed bucket only as a counted write its {@link BucketFill} allowed, with an {@code HLEN}
	 * behind it; everything else, and a field that holds the overflow marker, goes through the
	 * increment script, which never lets the bucket leave its compact encoding. Each command is
	 * sent at most once: an increment whose reply was lost fails with an
	 * {@link dev.slipcase.redis.lettuce.UnacknowledgedWriteException} and is never applied twice.
	 * The future fails with a {@link BucketFullException} when the key is new and its hashed bucket
	 * is full.
	 */
	CompletableFuture<String> increment(String key, String delta, boolean floating) {
		Location location = locate(key);
		CallSteps steps = new CallSteps();
		return steps.result(copyPlainValueWhenReadThrough(steps, location)
			.thenCompose((copied) -> incrementWhereItLives(steps, location, delta, floating)));
	}

	private CompletableFuture<String> incrementWhereItLives(CallSteps steps, Location location, String delta,
			boolean floating) {
		String key = location.key();
		if (!location.fieldFits()) {
			return floating
					? steps.send(this.redis, BinaryCommands.incrbyfloat(location.overflow(), Double.parseDouble(delta)))
						.thenApply((value) -> Double.toString(value))
					: steps.send(this.redis, BinaryCommands.incrby(location.overflow(), Long.parseLong(delta)))
						.thenApply((value) -> Long.toString(value));
		}
		int entryLimit = this.writes.entryLimit(location);
		boolean inPlace = !floating && this.limits.maxValueBytes() >= LONGEST_LONG && this.writes.bucketTtlMillis() == 0;
		CompletableFuture<@Nullable Long> inField;
		if (inPlace && !location.isHashed()) {
			inField = incrementField(steps, location, Long.parseLong(delta));
		}
		else if (inPlace && this.writes.fill().tryCount(location.hashedIndex(), 1)) {
			inField = incrementCountedField(steps, location, Long.parseLong(delta));
		}
		else {
			inField = CompletableFuture.completedFuture(null);
		}
		return inField.thenCompose((value) -> {
			if (value != null) {
				return CompletableFuture.completedFuture(Long.toString(value));
			}
			return script(steps, (pipeline) -> BucketScripts.increment(pipeline, location, entryLimit, delta, floating,
					this.writes.bucketTtlMillis(), this.limits))
				.thenApply((reply) -> {
					long count = BucketScripts.count(reply);
					if (location.isHashed() && count >= 0) {
						this.writes.fill().checked(location.hashedIndex(), count);
					}
					String incremented = BucketScripts.incremented(reply);
					if (incremented == null) {
						throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + key
								+ " not incremented because its hashed bucket " + location.bucketName()
								+ " holds " + entryLimit + " fields already, the most a hashed bucket takes with "
								+ "hash-max-listpack-entries " + this.limits.maxEntries() + ".");
					}
					return incremented;
				});
		});
	}

	/**
	 * {@code HINCRBY} of the field: the new value, or {@code null} when Redis refused because the
	 * field holds no integer (the overflow marker, say): then nothing changed.
	 */
	private CompletableFuture<@Nullable Long> incrementField(CallSteps steps, Location location, long delta) {
		return valueOrNotANumber(steps
			.send(() -> this.redis.submit(BinaryCommands.hincrby(location.bucket(), location.field(), delta))));
	}

	/**
	 * {@code HINCRBY} of the field of a hashed bucket, the fill's counted write, with an {@code HLEN}
	 * of the bucket written behind it whose reply goes to the fill: as {@link #incrementField}.
	 */
	private CompletableFuture<@Nullable Long> incrementCountedField(CallSteps steps, Location location, long delta) {
		BucketFill fill = this.writes.fill();
		int bucket = location.hashedIndex();
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		CompletableFuture<Long> reply = pipeline.submit(BinaryCommands.hincrby(location.bucket(), location.field(), delta));
		CompletableFuture<Long> count = pipeline.submit(BinaryCommands.hlen(location.bucket()));
		steps.send(pipeline, List.of(reply, count));
		// reported before the increment completes: the caller's next write finds the bucket's count
		return count.handle((fields, failure) -> {
			if (failure == null) {
				fill.counted(bucket, fields);
			}
			else {
				fill.countFailed(bucket);
			}
			return null;
		}).thenCompose((reported) -> valueOrNotANumber(reply));
	}

	/** The value of an {@code HINCRBY}, or {@code null} when Redis refused it because the field holds no integer. */
	private static CompletableFuture<@Nullable Long> valueOrNotANumber(CompletableFuture<Long> reply) {
		return reply.handle((value, failure) -> {
			if (failure == null) {
				return value;
			}
			Throwable cause = RedisFailures.unwrap(failure);
			if (cause instanceof RedisCommandExecutionException) {
				return null;
			}
			throw new CompletionException(cause);
		});
	}

	/**
	 * With read-through: copies a plain key's value and TTL to its new place before it is changed in
	 * place (an increment, a TTL change), only while the plain key still holds that value (on a
	 * cluster, where the two are in different slots, without that check); without, does nothing.
	 */
	private CompletableFuture<?> copyPlainValueWhenReadThrough(CallSteps steps, Location location) {
		if (!this.namespace.readThrough()) {
			return CompletableFuture.completedFuture(null);
		}
		return this.reads.readOwn(steps, location).thenCompose((own) -> {
			if (own != null) {
				return CompletableFuture.completedFuture(null);
			}
			byte[] plainKey = KeyPlacement.bytes(location.key());
			return steps.send(this.redis, BinaryCommands.get(plainKey)).thenCompose((plain) -> {
				if (plain == null) {
					return CompletableFuture.completedFuture(null);
				}
				return steps.send(this.redis, BinaryCommands.pttl(plainKey))
					.thenCompose((ttl) -> this.writes.copyPlainValue(steps, location, plainKey, plain,
							(ttl > 0) ? TtlMode.SET : TtlMode.CLEAR, (ttl > 0) ? Duration.ofMillis(ttl) : null));
			});
		});
	}

	// ---------------------------------------------------------------- TTLs

	/** The remaining TTL of {@code key} in milliseconds, as {@link ShardedTemplate#ttlMillis} describes it. */
	CompletableFuture<Long> ttlMillis(String key) {
		Location location = locate(key);
		CallSteps steps = new CallSteps();
		return steps.result(place(steps, location).thenCompose((place) -> (switch (place) {
			case ABSENT -> CompletableFuture.completedFuture(-2L);
			case OVERFLOW -> steps.send(this.redis, BinaryCommands.pttl(location.overflow()));
			case BUCKET -> fieldTtl(steps, location);
		}).thenCompose((ttl) -> {
			if (ttl == -1 && place == Place.BUCKET && this.writes.bucketTtlMillis() > 0) {
				return steps.send(this.redis, BinaryCommands.pttl(location.bucket()));
			}
			if (ttl == -2 && this.namespace.readThrough()) {
				return steps.send(this.redis, BinaryCommands.pttl(KeyPlacement.bytes(key)));
			}
			return CompletableFuture.completedFuture(ttl);
		})));
	}

	/**
	 * Sets a TTL on an existing key, as {@link ShardedTemplate#expire} describes it: one script,
	 * so that a write racing it (a set, an increment, a delete) is never undone by a write-back of
	 * what was read before it.
	 */
	CompletableFuture<Boolean> expire(String key, Duration ttl) {
		Location location = locate(key);
		CallSteps steps = new CallSteps();
		boolean mayMove = this.namespace.ttlFallback() == TtlFallback.PLAIN_KEY;
		return steps.result(copyPlainValueWhenReadThrough(steps, location)
			.thenCompose((copied) -> script(steps, (pipeline) -> BucketScripts.expire(pipeline, location, ttl.toMillis(),
					this.writes.bucketTtlMillis(), this.limits, mayMove)))
			.thenApply((reply) -> {
				if (reply == -1) {
					throw this.writes.ttlRefused();
				}
				return reply == 1;
			}));
	}

	/**
	 * Removes the TTL of {@code key}; whether it had one. One script, so that the TTL of a value
	 * written after the call looked is never the one removed.
	 */
	CompletableFuture<Boolean> persist(String key) {
		Location location = locate(key);
		CallSteps steps = new CallSteps();
		return steps.result(copyPlainValueWhenReadThrough(steps, location)
			.thenCompose((copied) -> script(steps, (pipeline) -> BucketScripts.persist(pipeline, location, this.limits)))
			.thenApply((reply) -> reply == 1));
	}

	/** Where a key's value is right now. */
	private enum Place {

		BUCKET, OVERFLOW, ABSENT

	}

	private CompletableFuture<Place> place(CallSteps steps, Location location) {
		CompletableFuture<@Nullable Place> inBucket = location.fieldFits()
				? steps.send(this.redis, BinaryCommands.hget(location.bucket(), location.field()))
					.thenApply((field) -> (field == null) ? Place.ABSENT
							: FieldValues.isOverflow(field) ? null : Place.BUCKET)
				: CompletableFuture.completedFuture(null);
		return inBucket.thenCompose((place) -> (place != null) ? CompletableFuture.completedFuture(place)
				: steps.send(this.redis, BinaryCommands.exists(location.overflow()))
					.thenApply((count) -> (count > 0) ? Place.OVERFLOW : Place.ABSENT));
	}

	private CompletableFuture<Long> fieldTtl(CallSteps steps, Location location) {
		if (!this.limits.fieldExpiry()) {
			return CompletableFuture.completedFuture(-1L);
		}
		return steps.send(this.redis, BinaryCommands.hpttl(location.bucket(), location.field()))
			.thenApply((reply) -> reply.isEmpty() ? -2L : reply.get(0));
	}

	// ---------------------------------------------------------------- plain keys

	/**
	 * The values and TTLs of plain keys, read together; a key that cannot be read as a string (a
	 * list, say) has a {@code null} value.
	 */
	List<PlainValue> readPlainKeys(List<byte[]> keys) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<byte @Nullable []>> values = new ArrayList<>(keys.size());
		List<CompletableFuture<Long>> ttls = new ArrayList<>(keys.size());
		for (byte[] key : keys) {
			values.add(pipeline.submit(BinaryCommands.get(key)));
			ttls.add(pipeline.submit(BinaryCommands.pttl(key)));
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

	/**
	 * Sends one script call alone as a turn of {@code steps}; its reply. Failures of this and of
	 * every turn stay as they are: the template waiting for or subscribed to the call translates
	 * them once, naming the call.
	 */
	private <T> CompletableFuture<T> script(CallSteps steps,
			Function<Pipeline<byte[], byte[]>, CompletableFuture<T>> call) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		return steps.send(pipeline, call.apply(pipeline));
	}

}
