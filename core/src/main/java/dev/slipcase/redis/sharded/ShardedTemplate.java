package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import dev.slipcase.redis.sharded.KeyPlacement.Location;

/**
 * A plain key/value API over one namespace whose values live as fields of small Redis hashes
 * ("buckets") kept in the compact listpack encoding. Create it with
 * {@link ShardedTemplates#template(ShardedNamespace, RedisSerializer)}. Works the same on a
 * standalone server and a cluster: every command touches one key, batch operations send one
 * command per bucket, pipelined, and never use a cross-slot transaction.
 * <p>
 * <b>Never flips a bucket.</b> After serialization, a value longer than the server's
 * {@code hash-max-listpack-value} (or an id too long to be a field) is stored in a plain overflow
 * key, and the bucket keeps a 9-byte marker pointing at it; reads, deletes and existence checks
 * follow the marker transparently. A write that would take a hashed bucket past
 * {@code hash-max-listpack-entries} is refused with {@link BucketFullException}.
 * <p>
 * <b>TTL that never lies.</b> On Redis 7.4+ a per-key TTL is a hash-field TTL ({@code HPEXPIRE});
 * a plain {@link #set(String, Object)} clears it ({@code HPERSIST}), {@link #setKeepTtl} keeps it.
 * On older servers a value with a TTL goes to a plain key with that TTL, or the write is refused,
 * as the namespace's {@link TtlFallback} says.
 * <p>
 * <b>Acknowledged writes only.</b> Every method waits for Redis's replies and throws (a Spring
 * {@code DataAccessException}) on an error or time-out; it never reports a write it did not see
 * acknowledged. Thread-safe; keys and values must not be {@code null} unless stated.
 *
 * @param <V> the value type
 */
public final class ShardedTemplate<V> {

	private static final int MARKER_LENGTH = 9;

	private static final byte[] NX = { '1' };

	private static final byte[] NO_NX = { '0' };

	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	private final Duration timeout;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final ServerLimits limits;

	private final RedisSerializer<V> serializer;

	private final KeyPlacement placement;

	private final String hashedBucketPrefix;

	private final long bucketTtlMillis;

	ShardedTemplate(RedisClusterAsyncCommands<byte[], byte[]> commands, Duration timeout, ShardedNamespace namespace,
			ShardLayout layout, ServerLimits limits, RedisSerializer<V> serializer) {
		if (limits.maxValueBytes() < MARKER_LENGTH) {
			throw new IllegalStateException("Namespace '" + namespace.name() + "': hash-max-listpack-value "
					+ limits.maxValueBytes() + " is below " + MARKER_LENGTH + " bytes, too small for overflow markers");
		}
		this.commands = commands;
		this.timeout = timeout;
		this.namespace = namespace;
		this.layout = layout;
		this.limits = limits;
		this.serializer = serializer;
		this.placement = new KeyPlacement(namespace, layout, limits.maxValueBytes());
		this.hashedBucketPrefix = namespace.ownedKeyPrefix() + "h:";
		Duration bucketTtl = namespace.bucketTtl();
		this.bucketTtlMillis = (bucketTtl != null) ? bucketTtl.toMillis() : 0;
	}

	/** The namespace this template serves. */
	public ShardedNamespace namespace() {
		return this.namespace;
	}

	/** The layout in use (the stored one). */
	public ShardLayout layout() {
		return this.layout;
	}

	/** The server limits this template guards against. */
	public ServerLimits limits() {
		return this.limits;
	}

	// ---------------------------------------------------------------- single keys

	/**
	 * The value of {@code key}, or {@code null} when there is none (with read-through, also after
	 * looking at the plain key of the same name).
	 */
	public @Nullable V get(String key) {
		byte[] bytes = read(this.placement.locate(key));
		return (bytes != null) ? deserialize(bytes, key) : null;
	}

	/** Stores {@code value} under {@code key}, removing any TTL the key had, like {@code SET}. */
	public void set(String key, V value) {
		write(List.of(this.placement.locate(key)), List.of(serialize(value, key)), false, null);
	}

	/**
	 * Stores {@code value} under {@code key} with a TTL.
	 * @throws UnsupportedOperationException when the server cannot expire hash fields and the namespace
	 * refuses per-key TTLs ({@link TtlFallback#REFUSE})
	 */
	public void set(String key, V value, Duration ttl) {
		write(List.of(this.placement.locate(key)), List.of(serialize(value, key)), false, checkTtl(ttl));
	}

	/**
	 * Stores {@code value} under {@code key}, keeping the key's current TTL (like {@code SET KEEPTTL}).
	 * Reading the TTL and writing are two steps, not atomic against a concurrent TTL change.
	 */
	public void setKeepTtl(String key, V value) {
		Location location = this.placement.locate(key);
		byte[] bytes = serialize(value, key);
		long ttl = ownTtl(location);
		write(List.of(location), List.of(bytes), false, (ttl > 0) ? Duration.ofMillis(ttl) : null);
	}

	/** Stores {@code value} only when {@code key} has no value; returns whether it was stored. */
	public boolean setIfAbsent(String key, V value) {
		Location location = this.placement.locate(key);
		byte[] bytes = serialize(value, key);
		if (this.namespace.readThrough() && legacyExists(key)) {
			return false;
		}
		return write(List.of(location), List.of(bytes), true, null)[0];
	}

	/** Removes {@code key} (and, with read-through, the plain key of the same name); returns whether it existed. */
	public boolean delete(String key) {
		Location location = this.placement.locate(key);
		boolean deleted;
		if (!location.inBucket()) {
			deleted = await(this.commands.del(plainKey(location)), "delete " + key) == 1;
		}
		else {
			List<Object> reply = await(script(Script.DELETE, ScriptOutputType.MULTI, bucket(location), location.field()),
					"delete " + key + " from bucket " + location.bucketName());
			boolean existed = ((Long) reply.get(0)) == 1;
			byte[] marker = (byte[]) reply.get(1);
			deleted = existed;
			if (marker.length > 0) {
				deleted = await(this.commands.del(overflowKey(marker)), "delete the overflow value of " + key) == 1;
			}
		}
		if (this.namespace.readThrough()) {
			deleted |= await(this.commands.del(bytes(key)), "delete the plain key " + key) == 1;
		}
		return deleted;
	}

	/** Whether {@code key} has a value. */
	public boolean exists(String key) {
		return read(this.placement.locate(key)) != null;
	}

	/**
	 * Adds {@code delta} to the decimal integer stored under {@code key} ({@code HINCRBY}; a missing
	 * key counts as 0) and returns the new value. Atomic: concurrent increments never lose a count.
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
	 * when it does not exist, like {@code PTTL}. In a namespace with a bucket TTL, a key without a TTL
	 * of its own reports its bucket's.
	 */
	public long ttlMillis(String key) {
		Location location = this.placement.locate(key);
		long own = ownTtl(location);
		if (own == -1 && this.bucketTtlMillis > 0 && location.inBucket()) {
			return await(this.commands.pttl(bucket(location)), "read the TTL of bucket " + location.bucketName());
		}
		if (own == -2 && this.namespace.readThrough()) {
			return await(this.commands.pttl(bytes(key)), "read the TTL of the plain key " + key);
		}
		return own;
	}

	/**
	 * Sets a TTL on an existing key; returns {@code false} when the key does not exist. Without
	 * hash-field expiry the value moves to a plain key (see {@link TtlFallback}); not atomic against
	 * a concurrent write of the same key.
	 */
	public boolean expire(String key, Duration ttl) {
		Duration checked = checkTtl(ttl);
		Location location = this.placement.locate(key);
		if (!location.inBucket()) {
			return await(this.commands.pexpire(plainKey(location), checked.toMillis()), "expire " + key);
		}
		if (this.limits.fieldExpiry()) {
			byte[] raw = await(this.commands.hget(bucket(location), location.field()), "read " + key);
			if (raw != null && !isMarker(raw)) {
				List<Long> reply = await(this.commands.hpexpire(bucket(location), checked.toMillis(), location.field()),
						"expire " + key);
				return !reply.isEmpty() && reply.get(0) == 1;
			}
		}
		byte[] value = read(location);
		if (value == null) {
			return false;
		}
		write(List.of(location), List.of(value), false, checked);
		return true;
	}

	/** Removes the TTL of {@code key}; returns whether it had one. */
	public boolean persist(String key) {
		Location location = this.placement.locate(key);
		if (!location.inBucket()) {
			return await(this.commands.persist(plainKey(location)), "persist " + key);
		}
		if (ownTtl(location) < 0) {
			return false;
		}
		if (this.limits.fieldExpiry()) {
			byte[] raw = await(this.commands.hget(bucket(location), location.field()), "read " + key);
			if (raw != null && !isMarker(raw)) {
				List<Long> reply = await(this.commands.hpersist(bucket(location), location.field()), "persist " + key);
				return !reply.isEmpty() && reply.get(0) == 1;
			}
		}
		byte[] value = read(location);
		if (value == null) {
			return false;
		}
		write(List.of(location), List.of(value), false, null);
		return true;
	}

	// ---------------------------------------------------------------- batches

	/**
	 * The values of {@code keys}, in the same order, {@code null} where a key has none. Sends one
	 * {@code HMGET} per bucket, pipelined.
	 */
	public List<@Nullable V> multiGet(List<String> keys) {
		Objects.requireNonNull(keys, "keys must not be null");
		int n = keys.size();
		List<Location> locations = new ArrayList<>(n);
		for (String key : keys) {
			locations.add(this.placement.locate(key));
		}
		byte[][] raw = new byte[n][];
		Map<String, List<Integer>> groups = groupByBucket(locations);
		List<CompletableFuture<?>> pending = new ArrayList<>();
		List<Runnable> collect = new ArrayList<>();
		for (List<Integer> group : groups.values()) {
			Location first = locations.get(group.get(0));
			if (!first.inBucket()) {
				for (int index : group) {
					CompletableFuture<byte[]> reply = this.commands.get(plainKey(locations.get(index))).toCompletableFuture();
					pending.add(reply);
					collect.add(() -> raw[index] = reply.join());
				}
				continue;
			}
			byte[][] fields = new byte[group.size()][];
			for (int i = 0; i < fields.length; i++) {
				fields[i] = locations.get(group.get(i)).field();
			}
			CompletableFuture<List<KeyValue<byte[], byte[]>>> reply = this.commands.hmget(bucket(first), fields)
				.toCompletableFuture();
			pending.add(reply);
			collect.add(() -> {
				List<KeyValue<byte[], byte[]>> values = reply.join();
				for (int i = 0; i < group.size(); i++) {
					raw[group.get(i)] = values.get(i).getValueOrElse(null);
				}
			});
		}
		awaitAll(pending, "read " + n + " keys of namespace '" + this.namespace.name() + "'");
		collect.forEach(Runnable::run);
		followMarkersAndPlainKeys(keys, locations, raw);
		List<@Nullable V> result = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			result.add((raw[i] != null) ? deserialize(raw[i], keys.get(i)) : null);
		}
		return result;
	}

	/**
	 * Stores every entry, removing TTLs like {@code SET}. Sends one script call (an {@code HSET} of
	 * all its fields) per bucket, pipelined; not atomic across buckets. When a hashed bucket is full,
	 * the other buckets are still written and a {@link BucketFullException} names the refused keys.
	 */
	public void multiSet(Map<String, ? extends V> values) {
		Objects.requireNonNull(values, "values must not be null");
		List<Location> locations = new ArrayList<>(values.size());
		List<byte[]> serialized = new ArrayList<>(values.size());
		values.forEach((key, value) -> {
			locations.add(this.placement.locate(key));
			serialized.add(serialize(value, key));
		});
		write(locations, serialized, false, null);
	}

	/**
	 * Calls {@code action} with every key and value of the namespace, bucket by bucket ({@code SCAN}
	 * then {@code HGETALL}); keys written during the iteration may or may not be seen. Plain keys read
	 * through from before a migration are not included.
	 */
	public void forEach(BiConsumer<String, ? super V> action) {
		Objects.requireNonNull(action, "action must not be null");
		for (String pattern : this.placement.scanPatterns()) {
			scanEach(pattern, 200, (batch) -> visit(batch, action));
		}
	}

	/**
	 * Samples up to {@code maxBuckets} buckets: their encoding ({@code OBJECT ENCODING}), fill,
	 * {@code MEMORY USAGE}, bytes per logical key and any bucket that left the compact encoding.
	 */
	public BucketMemoryReport memoryReport(int maxBuckets) {
		if (maxBuckets < 1) {
			throw new IllegalArgumentException("maxBuckets must be at least 1, was " + maxBuckets);
		}
		List<byte[]> sampled = new ArrayList<>();
		for (String pattern : this.placement.bucketPatterns()) {
			if (sampled.size() < maxBuckets) {
				scan(pattern, 500, (batch) -> {
					for (byte[] key : batch) {
						if (sampled.size() < maxBuckets) {
							sampled.add(key);
						}
					}
					return sampled.size() < maxBuckets;
				});
			}
		}
		List<CompletableFuture<String>> encodings = new ArrayList<>();
		List<CompletableFuture<Long>> lengths = new ArrayList<>();
		List<CompletableFuture<Long>> usages = new ArrayList<>();
		for (byte[] key : sampled) {
			encodings.add(this.commands.objectEncoding(key).toCompletableFuture());
			lengths.add(this.commands.hlen(key).toCompletableFuture());
			usages.add(this.commands.memoryUsage(key).toCompletableFuture());
		}
		List<CompletableFuture<?>> all = new ArrayList<>(encodings);
		all.addAll(lengths);
		all.addAll(usages);
		awaitAll(all, "sample " + sampled.size() + " buckets of namespace '" + this.namespace.name() + "'");
		int listpack = 0;
		List<String> flipped = new ArrayList<>();
		long fields = 0;
		long bytes = 0;
		double fill = 0;
		int capacity = Math.max(1, (int) Math.floor(this.limits.maxEntries() * this.namespace.fillFactor()));
		for (int i = 0; i < sampled.size(); i++) {
			String encoding = encodings.get(i).join();
			String name = new String(sampled.get(i), StandardCharsets.UTF_8);
			if ("listpack".equals(encoding) || "ziplist".equals(encoding)) {
				listpack++;
			}
			else if (encoding != null) {
				flipped.add(name);
			}
			Long length = lengths.get(i).join();
			Long usage = usages.get(i).join();
			fields += (length != null) ? length : 0;
			bytes += (usage != null) ? usage : 0;
			int bucketCapacity = name.startsWith(this.hashedBucketPrefix) ? capacity : this.layout.bucketSize();
			fill += (length != null) ? (double) length / bucketCapacity : 0;
		}
		return new BucketMemoryReport(this.namespace.name(), sampled.size(), listpack, flipped.size(),
				Collections.unmodifiableList(flipped), fields, bytes,
				(fields > 0) ? (double) bytes / fields : 0, sampled.isEmpty() ? 0 : fill / sampled.size());
	}

	/** A migrator moving existing plain keys of this namespace into their buckets. */
	public ShardedMigrator migrator() {
		return new ShardedMigrator(this);
	}

	// ---------------------------------------------------------------- internals shared with the migrator

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return this.commands;
	}

	Duration timeout() {
		return this.timeout;
	}

	KeyPlacement placement() {
		return this.placement;
	}

	/** Deserializes to check a migrated value is readable. */
	void checkReadable(byte[] bytes, String key) {
		deserialize(bytes, key);
	}

	/**
	 * Writes raw values. NX: only where the key has no value. Returns per location whether it was
	 * written. Values are stored in their bucket when they fit, else in an overflow key.
	 */
	boolean[] write(List<Location> locations, List<byte[]> values, boolean nx, @Nullable Duration ttl) {
		int n = locations.size();
		boolean fieldTtl = ttl != null && this.limits.fieldExpiry();
		boolean ttlToPlainKey = ttl != null && !this.limits.fieldExpiry();
		if (ttlToPlainKey && this.namespace.ttlFallback() == TtlFallback.REFUSE) {
			throw new UnsupportedOperationException("Namespace '" + this.namespace.name() + "' refuses per-key TTLs "
					+ "on " + this.limits + ": the server cannot expire hash fields (HPEXPIRE needs Redis 7.4+). "
					+ "Use ttlFallback PLAIN_KEY, a bucket TTL, or a newer server.");
		}
		long ttlMillis = (ttl != null) ? ttl.toMillis() : 0;
		long plainTtl = (ttl != null) ? ttlMillis : this.bucketTtlMillis;
		boolean[] written = new boolean[n];
		byte[][] stored = new byte[n][];
		byte[][] overflow = new byte[n][];

		// 1. plain keys first: long ids, and overflow values the bucket will point at
		List<CompletableFuture<String>> plainReplies = new ArrayList<>();
		List<Integer> plainIndexes = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			Location location = locations.get(i);
			byte[] value = values.get(i);
			if (!location.inBucket()) {
				SetArgs args = (plainTtl > 0) ? SetArgs.Builder.px(plainTtl) : new SetArgs();
				if (nx) {
					args.nx();
				}
				plainReplies.add(this.commands.set(plainKey(location), value, args).toCompletableFuture());
				plainIndexes.add(i);
			}
			else if (ttlToPlainKey || !fitsBucket(value)) {
				stored[i] = newMarker();
				overflow[i] = overflowKey(stored[i]);
				SetArgs args = (plainTtl > 0) ? SetArgs.Builder.px(plainTtl) : new SetArgs();
				plainReplies.add(this.commands.set(overflow[i], value, args).toCompletableFuture());
				plainIndexes.add(i);
			}
			else {
				stored[i] = value;
			}
		}
		try {
			awaitAll(plainReplies, "write " + plainReplies.size() + " plain keys of namespace '"
					+ this.namespace.name() + "'");
		}
		catch (RuntimeException ex) {
			deleteQuietly(Arrays.stream(overflow).filter(Objects::nonNull).toList());
			throw ex;
		}
		for (int j = 0; j < plainIndexes.size(); j++) {
			int index = plainIndexes.get(j);
			if (!locations.get(index).inBucket()) {
				written[index] = plainReplies.get(j).join() != null;
			}
		}

		// 2. one script call per bucket, pipelined
		Map<String, List<Integer>> groups = groupByBucket(locations);
		List<List<Integer>> bucketGroups = new ArrayList<>();
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>();
		byte[] mode = bytes(fieldTtl ? "x" : (this.limits.fieldExpiry() ? "p" : "n"));
		for (List<Integer> group : groups.values()) {
			Location first = locations.get(group.get(0));
			if (!first.inBucket()) {
				continue;
			}
			byte[][] args = new byte[5 + 2 * group.size()][];
			args[0] = nx ? NX : NO_NX;
			args[1] = bytes(Integer.toString(entryLimit(first)));
			args[2] = mode;
			args[3] = bytes(Long.toString(ttlMillis));
			args[4] = bytes(Long.toString(this.bucketTtlMillis));
			for (int i = 0; i < group.size(); i++) {
				args[5 + 2 * i] = locations.get(group.get(i)).field();
				args[6 + 2 * i] = stored[group.get(i)];
			}
			bucketGroups.add(group);
			replies.add(script(Script.SET, ScriptOutputType.MULTI, bucket(first), args));
		}
		awaitAll(replies, "write " + n + " keys of namespace '" + this.namespace.name() + "'");

		// 3. clean up: overflow values no longer pointed at
		List<byte[]> unused = new ArrayList<>();
		List<String> refused = new ArrayList<>();
		for (int g = 0; g < bucketGroups.size(); g++) {
			List<Integer> group = bucketGroups.get(g);
			List<Object> reply = replies.get(g).join();
			if (((Long) reply.get(0)) == -1) {
				for (int index : group) {
					refused.add(locations.get(index).key());
					if (overflow[index] != null) {
						unused.add(overflow[index]);
					}
				}
				continue;
			}
			for (int i = 0; i < group.size(); i++) {
				int index = group.get(i);
				written[index] = ((Long) reply.get(2 * i)) == 1;
				byte[] previous = (byte[]) reply.get(2 * i + 1);
				if (previous.length > 0) {
					unused.add(overflowKey(previous));
				}
				if (!written[index] && overflow[index] != null) {
					unused.add(overflow[index]);
				}
			}
		}
		if (!unused.isEmpty()) {
			await(this.commands.del(unused.toArray(new byte[0][])).toCompletableFuture(),
					"delete " + unused.size() + " replaced overflow values");
		}
		if (!refused.isEmpty()) {
			throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + refused.size()
					+ " key(s) not written because their hashed bucket holds hash-max-listpack-entries ("
					+ this.limits.maxEntries() + ") fields already, and one more would leave the compact encoding: "
					+ refused.subList(0, Math.min(10, refused.size()))
					+ ". Give the namespace more buckets (bucketCount/expectedKeys) under a new alias and migrate.");
		}
		return written;
	}

	/** The raw value of a location, following overflow markers and read-through; {@code null} when absent. */
	byte @Nullable [] read(Location location) {
		byte[] bytes;
		if (!location.inBucket()) {
			bytes = await(this.commands.get(plainKey(location)), "read " + location.key());
		}
		else {
			bytes = await(this.commands.hget(bucket(location), location.field()), "read " + location.key());
			bytes = followMarker(location, bytes);
		}
		if (bytes == null && this.namespace.readThrough()) {
			bytes = await(this.commands.get(bytes(location.key())), "read the plain key " + location.key());
		}
		return bytes;
	}

	// ---------------------------------------------------------------- helpers

	private byte @Nullable [] followMarker(Location location, byte @Nullable [] raw) {
		byte[] current = raw;
		for (int attempt = 0; current != null && isMarker(current); attempt++) {
			byte[] value = await(this.commands.get(overflowKey(current)), "read the overflow value of " + location.key());
			if (value != null) {
				return value;
			}
			// the overflow value expired, or a concurrent write replaced it: drop the marker only if unchanged
			Long removed = await(script(Script.DELETE_IF_MARKER, ScriptOutputType.INTEGER, bucket(location),
					location.field(), current), "remove the expired overflow marker of " + location.key());
			if (removed == 1) {
				return null;
			}
			if (attempt == 10) {
				throw new RedisSystemException("Key " + location.key() + " kept changing while being read", null);
			}
			current = await(this.commands.hget(bucket(location), location.field()), "read " + location.key());
		}
		return current;
	}

	private void followMarkersAndPlainKeys(List<String> keys, List<Location> locations, byte[][] raw) {
		List<Integer> markers = new ArrayList<>();
		List<CompletableFuture<byte[]>> overflowReads = new ArrayList<>();
		for (int i = 0; i < raw.length; i++) {
			if (raw[i] != null && locations.get(i).inBucket() && isMarker(raw[i])) {
				markers.add(i);
				overflowReads.add(this.commands.get(overflowKey(raw[i])).toCompletableFuture());
			}
		}
		awaitAll(overflowReads, "read " + overflowReads.size() + " overflow values");
		for (int j = 0; j < markers.size(); j++) {
			int index = markers.get(j);
			byte[] value = overflowReads.get(j).join();
			// a vanished overflow value (expired or replaced meanwhile) is read again the careful way
			raw[index] = (value != null) ? value : followMarker(locations.get(index), raw[index]);
		}
		if (this.namespace.readThrough()) {
			List<Integer> missing = new ArrayList<>();
			List<CompletableFuture<byte[]>> legacyReads = new ArrayList<>();
			for (int i = 0; i < raw.length; i++) {
				if (raw[i] == null) {
					missing.add(i);
					legacyReads.add(this.commands.get(bytes(keys.get(i))).toCompletableFuture());
				}
			}
			awaitAll(legacyReads, "read " + legacyReads.size() + " plain keys");
			for (int j = 0; j < missing.size(); j++) {
				raw[missing.get(j)] = legacyReads.get(j).join();
			}
		}
	}

	private String increment(String key, String delta, boolean floating) {
		Location location = this.placement.locate(key);
		if (!location.inBucket()) {
			return floating
					? Double.toString(await(this.commands.incrbyfloat(plainKey(location), Double.parseDouble(delta)), "increment " + key))
					: Long.toString(await(this.commands.incrby(plainKey(location), Long.parseLong(delta)), "increment " + key));
		}
		if (this.namespace.readThrough()) {
			copyLegacyValue(location);
		}
		try {
			if (!floating && this.bucketTtlMillis == 0 && entryLimit(location) == 0) {
				return Long.toString(await(this.commands.hincrby(bucket(location), location.field(), Long.parseLong(delta)),
						"increment " + key));
			}
			List<Object> reply = await(script(Script.INCREMENT, ScriptOutputType.MULTI, bucket(location),
					bytes(Integer.toString(entryLimit(location))), bytes(delta), bytes(floating ? "f" : "i"),
					bytes(Long.toString(this.bucketTtlMillis)), location.field()), "increment " + key);
			if (((Long) reply.get(0)) == -1) {
				throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + key + " not incremented "
						+ "because its hashed bucket " + location.bucketName() + " holds hash-max-listpack-entries ("
						+ this.limits.maxEntries() + ") fields already.");
			}
			return new String((byte[]) reply.get(1), StandardCharsets.US_ASCII);
		}
		catch (RedisSystemException ex) {
			// a value kept in an overflow key (too long, or with a TTL on an older server) is incremented there
			byte[] raw = await(this.commands.hget(bucket(location), location.field()), "read " + key);
			if (raw == null || !isMarker(raw)) {
				throw ex;
			}
			return floating
					? Double.toString(await(this.commands.incrbyfloat(overflowKey(raw), Double.parseDouble(delta)), "increment " + key))
					: Long.toString(await(this.commands.incrby(overflowKey(raw), Long.parseLong(delta)), "increment " + key));
		}
	}

	/** With read-through: copies a plain key's value into its bucket before the bucket's value is changed in place. */
	private void copyLegacyValue(Location location) {
		Boolean present = await(this.commands.hexists(bucket(location), location.field()), "read " + location.key());
		if (Boolean.TRUE.equals(present)) {
			return;
		}
		byte[] legacy = await(this.commands.get(bytes(location.key())), "read the plain key " + location.key());
		if (legacy != null) {
			long ttl = await(this.commands.pttl(bytes(location.key())), "read the TTL of " + location.key());
			write(List.of(location), List.of(legacy), true, (ttl > 0) ? Duration.ofMillis(ttl) : null);
		}
	}

	/** The key's own TTL in ms (not its bucket's): -1 none, -2 absent. */
	private long ownTtl(Location location) {
		if (!location.inBucket()) {
			return await(this.commands.pttl(plainKey(location)), "read the TTL of " + location.key());
		}
		byte[] raw = await(this.commands.hget(bucket(location), location.field()), "read " + location.key());
		if (raw == null) {
			return -2;
		}
		if (isMarker(raw)) {
			// the overflow key carries the value's TTL (or, in a namespace with a bucket TTL, the bucket's)
			long ttl = await(this.commands.pttl(overflowKey(raw)), "read the TTL of " + location.key());
			return (ttl == -2) ? -2 : ttl;
		}
		if (!this.limits.fieldExpiry()) {
			return -1;
		}
		List<Long> reply = await(this.commands.hpttl(bucket(location), location.field()), "read the TTL of " + location.key());
		return reply.isEmpty() ? -2 : reply.get(0);
	}

	private void visit(List<byte[]> keys, BiConsumer<String, ? super V> action) {
		List<CompletableFuture<Map<byte[], byte[]>>> buckets = new ArrayList<>();
		List<String> bucketNames = new ArrayList<>();
		List<CompletableFuture<byte[]>> plain = new ArrayList<>();
		List<String> plainNames = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, StandardCharsets.UTF_8);
			if (name.startsWith(this.namespace.ownedKeyPrefix() + "l:")) {
				plain.add(this.commands.get(key).toCompletableFuture());
				plainNames.add(name);
			}
			else {
				buckets.add(this.commands.hgetall(key).toCompletableFuture());
				bucketNames.add(name);
			}
		}
		List<CompletableFuture<?>> all = new ArrayList<>(buckets);
		all.addAll(plain);
		awaitAll(all, "read " + keys.size() + " buckets of namespace '" + this.namespace.name() + "'");
		for (int i = 0; i < buckets.size(); i++) {
			for (Map.Entry<byte[], byte[]> entry : buckets.get(i).join().entrySet()) {
				String field = new String(entry.getKey(), StandardCharsets.UTF_8);
				String key = this.placement.logicalKey(bucketNames.get(i), field);
				if (key == null) {
					continue;
				}
				byte[] value = entry.getValue();
				if (isMarker(value)) {
					value = await(this.commands.get(overflowKey(value)), "read the overflow value of " + key);
				}
				if (value != null) {
					action.accept(key, deserialize(value, key));
				}
			}
		}
		for (int i = 0; i < plain.size(); i++) {
			String key = this.placement.logicalKey(plainNames.get(i), "");
			byte[] value = plain.get(i).join();
			if (key != null && value != null) {
				action.accept(key, deserialize(value, key));
			}
		}
	}

	/** Scans keys matching {@code pattern}, handing batches to {@code batch} until it returns false. */
	void scan(String pattern, int count, java.util.function.Predicate<List<byte[]>> batch) {
		ScanArgs args = ScanArgs.Builder.matches(pattern).limit(count);
		ScanCursor cursor = ScanCursor.INITIAL;
		while (true) {
			KeyScanCursor<byte[]> page = await(this.commands.scan(cursor, args), "scan " + pattern);
			if (!page.getKeys().isEmpty() && !batch.test(page.getKeys())) {
				return;
			}
			if (page.isFinished()) {
				return;
			}
			cursor = page;
		}
	}

	private void scanEach(String pattern, int count, Consumer<List<byte[]>> batch) {
		scan(pattern, count, (keys) -> {
			batch.accept(keys);
			return true;
		});
	}

	private boolean legacyExists(String key) {
		return await(this.commands.exists(bytes(key)), "look up the plain key " + key) > 0;
	}

	private Map<String, List<Integer>> groupByBucket(List<Location> locations) {
		Map<String, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < locations.size(); i++) {
			Location location = locations.get(i);
			String group = location.inBucket() ? location.bucketName() : "";
			groups.computeIfAbsent(group, (name) -> new ArrayList<>()).add(i);
		}
		return groups;
	}

	private int entryLimit(Location location) {
		return location.bucketName().startsWith(this.hashedBucketPrefix) ? this.limits.maxEntries() : 0;
	}

	private boolean fitsBucket(byte[] value) {
		return value.length <= this.limits.maxValueBytes() && !isMarker(value);
	}

	static boolean isMarker(byte[] value) {
		return value.length == MARKER_LENGTH && value[0] == 0;
	}

	private static byte[] newMarker() {
		byte[] marker = new byte[MARKER_LENGTH];
		long nonce = ThreadLocalRandom.current().nextLong();
		for (int i = 1; i < MARKER_LENGTH; i++) {
			marker[i] = (byte) (nonce >>> (8 * (i - 1)));
		}
		return marker;
	}

	byte[] overflowKey(byte[] marker) {
		return this.placement.overflowKey(HexFormat.of().formatHex(marker, 1, MARKER_LENGTH));
	}

	private static byte[] bucket(Location location) {
		return Objects.requireNonNull(location.bucket());
	}

	private static byte[] plainKey(Location location) {
		return Objects.requireNonNull(location.plainKey());
	}

	<T> CompletableFuture<T> script(Script script, ScriptOutputType type, byte[] key, byte[]... args) {
		byte[][] keys = { key };
		CompletableFuture<T> first = this.commands.<T>evalsha(script.sha(), type, keys, args).toCompletableFuture();
		return first.handle((result, ex) -> {
			if (ex == null) {
				return CompletableFuture.completedFuture(result);
			}
			if (Replies.unwrap(ex) instanceof RedisNoScriptException) {
				return this.commands.<T>eval(script.sourceBytes(), type, keys, args).toCompletableFuture();
			}
			return CompletableFuture.<T>failedFuture(Replies.unwrap(ex));
		}).thenCompose((future) -> future);
	}

	<T> T await(java.util.concurrent.CompletionStage<T> reply, String what) {
		return Replies.await(reply, this.timeout, what);
	}

	void awaitAll(List<? extends CompletableFuture<?>> replies, String what) {
		RuntimeException failure = null;
		for (CompletableFuture<?> reply : replies) {
			try {
				await(reply, what);
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private void deleteQuietly(List<byte[]> keys) {
		if (keys.isEmpty()) {
			return;
		}
		try {
			await(this.commands.del(keys.toArray(new byte[0][])), "delete " + keys.size() + " unused overflow keys");
		}
		catch (RuntimeException ex) {
			// the write already failed; orphaned overflow keys are unreachable and harmless
		}
	}

	private Duration checkTtl(Duration ttl) {
		Objects.requireNonNull(ttl, "ttl must not be null");
		if (ttl.isNegative() || ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttl);
		}
		return ttl;
	}

	private byte[] serialize(@Nullable V value, String key) {
		if (value == null) {
			throw new IllegalArgumentException("value of " + key + " must not be null");
		}
		byte[] bytes = this.serializer.serialize(value);
		if (bytes == null) {
			throw new SerializationException("Serializer " + this.serializer + " returned null for the value of " + key);
		}
		return bytes;
	}

	private V deserialize(byte[] bytes, String key) {
		try {
			V value = this.serializer.deserialize(bytes);
			if (value == null) {
				throw new SerializationException("Serializer returned null for the " + bytes.length + " bytes of " + key);
			}
			return value;
		}
		catch (SerializationException ex) {
			throw new SerializationException("Cannot read the value of " + key + " in namespace '" + this.namespace.name()
					+ "': " + ex.getMessage(), ex);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
