package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.metrics.ObservedCall;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A plain key/value API over one namespace whose values live as fields of small Redis hashes
 * ("buckets") kept in the compact listpack encoding. Create it with
 * {@link ShardedTemplates#template(ShardedNamespace, RedisSerializer)}. Works the same on a
 * standalone server and a cluster: every command touches one slot, batch operations send one
 * command per bucket, pipelined, and never use a cross-slot transaction.
 * <p>
 * <b>Never flips a bucket.</b> After serialization, a value longer than the server's
 * {@code hash-max-listpack-value} (or an id too long to be a field) is stored in the bucket's
 * overflow key for that field, a plain key in the bucket's cluster slot, and its field holds a short
 * marker pointing there: reads, deletes and existence checks find it without a script, and every
 * write moves a value between field and overflow key atomically (a {@code MULTI}/{@code EXEC} block
 * or a script, see {@code docs/sharded.md} for which call sends what). A write that would take a
 * hashed bucket past {@code hash-max-listpack-entries} is refused with {@link BucketFullException};
 * an increment whose result would be too long moves the value to its overflow key.
 * <p>
 * <b>TTL that never lies.</b> On Redis 7.4+ a per-key TTL is a hash-field TTL ({@code HPEXPIRE});
 * a plain {@link #set(String, Object)} clears it, {@link #setKeepTtl} keeps it.
 * On older servers a value with a TTL goes to a plain key with that TTL, or the write is refused,
 * as the namespace's {@link TtlFallback} says.
 * <p>
 * <b>Acknowledged writes only.</b> Every method waits for Redis's replies and throws a Spring
 * {@code DataAccessException} on an error ({@code RedisSystemException}), a lost connection
 * ({@code RedisConnectionFailureException}) or a time-out ({@code QueryTimeoutException}, the
 * commands cancelled); it never reports a write it did not see acknowledged. Thread-safe; keys and
 * values must not be {@code null} unless stated.
 * <p>
 * This class encodes each value once (into a pooled buffer with a {@link SlipcaseRedisSerializer})
 * and reads bytes back; a {@link BucketStore} under it keeps them, choosing the commands of each
 * operation, and releases each encoded value it is handed once its call is done. Values written to
 * overflow keys because they are too long, and every {@link #memoryReport(int)}, are reported to
 * {@link SlipcaseObservers#current()}.
 *
 * @param <V> the value type
 */
public final class ShardedTemplate<V> {

	private final BucketStore store;

	private final BucketScan scan;

	private final RedisSerializer<V> serializer;

	private final ObservationRegistry observations;

	private final String formatName;

	/** The format of a {@link SlipcaseRedisSerializer}, which encodes into a pooled buffer; else {@code null}. */
	private final @Nullable ValueFormat<V> format;

	private final ByteBufAllocator allocator;

	ShardedTemplate(BucketStore store, RedisSerializer<V> serializer) {
		this(store, serializer, ObservationRegistry.NOOP);
	}

	private ShardedTemplate(BucketStore store, RedisSerializer<V> serializer, ObservationRegistry observations) {
		this.store = store;
		this.scan = new BucketScan(store);
		this.serializer = serializer;
		this.observations = observations;
		if (serializer instanceof SlipcaseRedisSerializer<V> slipcase) {
			this.format = slipcase.format();
			this.formatName = this.format.name();
			this.allocator = slipcase.allocator();
		}
		else {
			this.format = null;
			this.formatName = serializer.getClass().getSimpleName();
			this.allocator = BufferAllocators.defaultAllocator();
		}
	}

	/**
	 * This template with its calls observed in {@code registry}: one {@code slipcase.redis.sharded}
	 * observation per get, set, setIfAbsent, delete, increment, multiGet and multiSet, tagged with
	 * the call, the namespace, the format and the outcome, with the bytes written or read as a
	 * high-cardinality tag. It is current while the call sends its commands, so Lettuce's command
	 * observations nest under it. See {@link SlipcaseObservationDocumentation#SHARDED}.
	 */
	public ShardedTemplate<V> withObservationRegistry(ObservationRegistry registry) {
		Assert.notNull(registry, "registry must not be null");
		return new ShardedTemplate<>(this.store, this.serializer, registry);
	}

	/** The namespace this template serves. */
	public ShardedNamespace namespace() {
		return this.store.namespace();
	}

	/**
	 * The Reactor form of this template, for WebFlux handlers and other callers that must not
	 * block: the same operations, commands and guarantees, each a {@code Mono}; see
	 * {@link ReactiveShardedTemplate}.
	 */
	public ReactiveShardedTemplate<V> reactive() {
		return new ReactiveShardedTemplate<>(this, this.store);
	}

	/** The layout in use (the stored one). */
	public ShardLayout layout() {
		return this.store.layout();
	}

	/** The server limits this template guards against. */
	public ServerLimits limits() {
		return this.store.limits();
	}

	// ---------------------------------------------------------------- single keys

	/**
	 * The value of {@code key}, or {@code null} when there is none (with read-through, also after
	 * looking at the plain key of the same name). One {@code HGET} when the value is in its bucket.
	 */
	public @Nullable V get(String key) {
		return observed("get", (call) -> {
			byte[] bytes = await(this.store.get(this.store.locate(key)), this.store.callNames().get(), key);
			if (bytes == null) {
				return null;
			}
			call.storedBytes(bytes.length);
			return deserialize(bytes, key);
		});
	}

	/** Stores {@code value} under {@code key}, removing any TTL the key had, like {@code SET}. */
	public void set(String key, V value) {
		write(key, value, TtlMode.CLEAR, null);
	}

	/**
	 * Stores {@code value} under {@code key} with a TTL.
	 * @throws UnsupportedOperationException when the server cannot expire hash fields and the namespace
	 * refuses per-key TTLs ({@link TtlFallback#REFUSE}); nothing is written then
	 */
	public void set(String key, V value, Duration ttl) {
		write(key, value, TtlMode.SET, checkTtl(ttl));
	}

	/** Stores {@code value} under {@code key}, keeping the key's current TTL, like {@code SET KEEPTTL}. */
	public void setKeepTtl(String key, V value) {
		write(key, value, TtlMode.KEEP, null);
	}

	/**
	 * Stores {@code value} only when {@code key} has no value; returns whether it was stored. With
	 * read-through, an existing plain key of the same name counts as a value.
	 */
	public boolean setIfAbsent(String key, V value) {
		return observed("setIfAbsent", (call) -> {
			Location location = this.store.locate(key);
			EncodedValue encoded = encode(value, key);
			call.storedBytes(encoded.size());
			return await(this.store.setIfAbsent(location, encoded), this.store.callNames().setIfAbsent(), key);
		});
	}

	/** Removes {@code key} (and, with read-through, the plain key of the same name); returns whether it existed. */
	public boolean delete(String key) {
		return observed("delete", (call) -> await(this.store.delete(key), this.store.callNames().delete(), key));
	}

	/** Whether {@code key} has a value. */
	public boolean exists(String key) {
		return await(this.store.get(this.store.locate(key)), this.store.callNames().lookUp(), key) != null;
	}

	/**
	 * Adds {@code delta} to the decimal integer stored under {@code key} and returns the new value; a
	 * missing key counts as 0. Atomic ({@code HINCRBY}, or one script where the value lives in its
	 * overflow key): concurrent increments never lose a count. Sent at most once: an increment whose
	 * reply was lost with its connection fails with an
	 * {@link dev.slipcase.redis.lettuce.UnacknowledgedWriteException} and is never applied twice.
	 * @throws RedisSystemException when the value is not a decimal integer
	 */
	public long incrBy(String key, long delta) {
		return Long.parseLong(increment(key, Long.toString(delta), false));
	}

	/** Subtracts {@code delta}; see {@link #incrBy(String, long)}. */
	public long decrBy(String key, long delta) {
		if (delta == Long.MIN_VALUE) {
			throw new IllegalArgumentException("delta must be greater than Long.MIN_VALUE");
		}
		return incrBy(key, -delta);
	}

	/** Adds {@code delta} to the decimal number stored under {@code key} ({@code HINCRBYFLOAT}). */
	public double incrByFloat(String key, double delta) {
		if (!Double.isFinite(delta)) {
			throw new IllegalArgumentException("delta must be finite, was " + delta);
		}
		return Double.parseDouble(increment(key, Double.toString(delta), true));
	}

	/**
	 * The remaining TTL of {@code key} in milliseconds, {@code -1} when it has none and {@code -2}
	 * when it does not exist, like {@code PTTL}. In a namespace with a bucket TTL, a key in its bucket
	 * without a TTL of its own reports its bucket's.
	 */
	public long ttlMillis(String key) {
		return await(this.store.ttlMillis(key), this.store.callNames().readTtl(), key);
	}

	/**
	 * Sets a TTL on an existing key; returns {@code false} when the key does not exist. Without
	 * hash-field expiry, a value in its bucket moves to its overflow key to carry the TTL (or the call is
	 * refused, see {@link TtlFallback}).
	 */
	public boolean expire(String key, Duration ttl) {
		return await(this.store.expire(key, checkTtl(ttl)), this.store.callNames().expire(), key);
	}

	/** Removes the TTL of {@code key}; returns whether it had one. */
	public boolean persist(String key) {
		return await(this.store.persist(key), this.store.callNames().persist(), key);
	}

	// ---------------------------------------------------------------- batches

	/**
	 * The values of {@code keys}, in the same order, {@code null} where a key has none: one
	 * {@code HMGET} per bucket ({@code HGET} for a bucket of one key), written together, then one
	 * {@code GET} per field that holds the overflow marker, written together. No script, unless a value was moving at that moment.
	 */
	public List<@Nullable V> multiGet(List<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		return observed("multiGet", (call) -> {
			List<Location> locations = new ArrayList<>(keys.size());
			keys.forEach((key) -> locations.add(this.store.locate(key)));
			List<byte @Nullable []> raw = await(this.store.getAll(locations), this.store.callNames().getMany(), null);
			return deserializeAll(keys, raw, call::storedBytes);
		});
	}

	/**
	 * Stores every entry, removing TTLs like {@code SET}. Numeric keys: one {@code MULTI}/{@code EXEC}
	 * block (per bucket on a cluster); hashed keys: one script call per bucket, pipelined; atomic per
	 * bucket, not across buckets. When a hashed bucket is full, the other
	 * buckets are still written and a {@link BucketFullException} names the refused keys.
	 */
	public void multiSet(Map<String, ? extends V> values) {
		Assert.notNull(values, "values must not be null");
		observed("multiSet", (call) -> {
			List<Location> locations = new ArrayList<>(values.size());
			values.keySet().forEach((key) -> locations.add(this.store.locate(key)));
			await(this.store.write(locations, encodeAll(values, call::storedBytes), false, TtlMode.CLEAR, null),
					this.store.callNames().setMany(), null);
			return null;
		});
	}

	/**
	 * Calls {@code action} with every key and value of the namespace, bucket by bucket ({@code SCAN},
	 * then {@code HGETALL}); keys written during the iteration may or may not be seen. Plain keys read
	 * through from before a migration are not included.
	 */
	public void forEach(BiConsumer<String, ? super V> action) {
		Assert.notNull(action, "action must not be null");
		this.scan.forEach((key, bytes) -> action.accept(key, deserialize(bytes, key)));
	}

	/**
	 * Samples up to {@code maxBuckets} buckets: their encoding ({@code OBJECT ENCODING}), fill,
	 * {@code MEMORY USAGE}, bytes per logical key and any bucket that left the compact encoding.
	 * Overflow keys are not part of the sample.
	 */
	public BucketMemoryReport memoryReport(int maxBuckets) {
		if (maxBuckets < 1) {
			throw new IllegalArgumentException("maxBuckets must be at least 1, was " + maxBuckets);
		}
		return new BucketSampler(this.store, this.scan).sample(maxBuckets);
	}

	/**
	 * A migrator moving existing plain keys of this namespace into their buckets.
	 * @throws IllegalStateException when the namespace has no key prefix to find its plain keys by
	 */
	public ShardedMigrator migrator() {
		return new ShardedMigrator(this.store, this.scan, this.serializer);
	}

	// ---------------------------------------------------------------- helpers

	private void write(String key, V value, TtlMode ttlMode, @Nullable Duration ttl) {
		observed("set", (call) -> {
			Location location = this.store.locate(key);
			EncodedValue encoded = encode(value, key);
			call.storedBytes(encoded.size());
			await(this.store.write(List.of(location), List.of(encoded), false, ttlMode, ttl),
					this.store.callNames().set(), key);
			return null;
		});
	}

	private String increment(String key, String delta, boolean floating) {
		return observed("increment",
				(call) -> await(this.store.increment(key, delta, floating), this.store.callNames().increment(), key));
	}

	/** Runs {@code call} as one observed call: the observation current while it runs, stopped after. */
	private <R> R observed(String operation, Function<ObservedCall, R> call) {
		return SlipcaseObservationDocumentation.SHARDED
			.start(this.observations, operation, namespace().name(), this.formatName)
			.run(call);
	}

	/** Refuses a {@code null} value of {@code key}, with the message every write gives. */
	static void requireValue(String key, @Nullable Object value) {
		if (value == null) {
			throw new IllegalArgumentException("value of " + key + " must not be null");
		}
	}

	/**
	 * The values of {@code keys} from their bytes, {@code null} where a key has none, each size
	 * told to {@code storedBytes}.
	 * @throws KeyedSerializationException naming the first key whose bytes cannot be read
	 */
	List<@Nullable V> deserializeAll(List<String> keys, List<byte @Nullable []> raw, LongConsumer storedBytes) {
		List<@Nullable V> values = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			byte[] bytes = raw.get(i);
			if (bytes != null) {
				storedBytes.accept(bytes.length);
			}
			values.add((bytes != null) ? deserialize(bytes, keys.get(i)) : null);
		}
		return values;
	}

	/** Waits for a call of the store, see {@link dev.slipcase.redis.lettuce.CommandChannel#await}. */
	private <T> T await(CompletableFuture<T> call, String action, @Nullable String key) {
		return this.store.redis().await(call, action, key);
	}

	static Duration checkTtl(Duration ttl) {
		Assert.notNull(ttl, "ttl must not be null");
		if (ttl.isNegative() || ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttl);
		}
		return ttl;
	}

	/**
	 * The value of {@code key}, encoded once: with a {@link SlipcaseRedisSerializer}, by its format
	 * straight into a buffer from its allocator; with any other serializer, its bytes held as they are. The
	 * caller is responsible for releasing the returned value, normally by handing it to the store.
	 * @throws KeyedSerializationException naming the key when the value cannot be encoded; nothing
	 * is left to release then
	 */
	EncodedValue encode(@Nullable V value, String key) {
		requireValue(key, value);
		if (this.format == null) {
			return EncodedValue.of(serialize(value, key));
		}
		try {
			return EncodedValue.encode(this.format, value, this.allocator);
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key,
					new SerializationException(where() + ": " + ex.getMessage(), ex));
		}
	}

	/**
	 * The values of {@code values}, in its order, each encoded once (see {@link #encode}), its size
	 * told to {@code storedBytes}. The caller is responsible for releasing them, normally by handing
	 * them to the store.
	 * @throws KeyedSerializationException naming the key of a value that cannot be encoded; the values
	 * encoded before it are released, so nothing is left to release then
	 */
	List<EncodedValue> encodeAll(Map<String, ? extends V> values, LongConsumer storedBytes) {
		List<EncodedValue> encoded = new ArrayList<>(values.size());
		try {
			values.forEach((key, value) -> {
				EncodedValue one = encode(value, key);
				encoded.add(one);
				storedBytes.accept(one.size());
			});
		}
		catch (RuntimeException | Error ex) {
			encoded.forEach(EncodedValue::release);
			throw ex;
		}
		return encoded;
	}

	/**
	 * The bytes of the value of {@code key}.
	 * @throws KeyedSerializationException naming the key when the serializer fails or returns {@code null}
	 */
	private byte[] serialize(@Nullable V value, String key) {
		requireValue(key, value);
		byte[] bytes;
		try {
			bytes = this.serializer.serialize(value);
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key,
					new SerializationException(where() + ": " + ex.getMessage(), ex));
		}
		catch (RuntimeException ex) {
			throw KeyedSerializationException.of(key, new SerializationException(where() + ": cannot write a "
					+ value.getClass().getName() + " with " + this.serializer + ": " + ex, ex));
		}
		if (bytes == null) {
			throw KeyedSerializationException.of(key, "serializer " + this.serializer + " returned null");
		}
		return bytes;
	}

	/** Where a failure happened, for its message: built only when something failed. */
	private String where() {
		return "namespace '" + namespace().name() + "'";
	}

	private String cannotRead(byte[] bytes) {
		return where() + ": cannot read " + bytes.length + " bytes";
	}

	/**
	 * The value of {@code key} from its bytes.
	 * @throws KeyedSerializationException naming the key when the serializer fails or returns {@code null}
	 */
	V deserialize(byte[] bytes, String key) {
		V value;
		try {
			value = this.serializer.deserialize(bytes);
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key,
					new SerializationException(cannotRead(bytes) + ": " + ex.getMessage(), ex));
		}
		catch (RuntimeException ex) {
			throw KeyedSerializationException.of(key, new SerializationException(cannotRead(bytes) + ": " + ex, ex));
		}
		if (value == null) {
			throw KeyedSerializationException.of(key, cannotRead(bytes) + ": the serializer returned null");
		}
		return value;
	}

}
