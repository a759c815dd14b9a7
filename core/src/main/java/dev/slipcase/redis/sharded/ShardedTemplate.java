package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import dev.slipcase.redis.sharded.KeyPlacement.Owned;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.KeyValueListOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A plain key/value API over one namespace whose values live as fields of small Redis hashes
 * ("buckets") kept in the compact listpack encoding. Create it with
 * {@link ShardedTemplates#template(ShardedNamespace, RedisSerializer)}. Works the same on a
 * standalone server and a cluster: every command touches one key, batch operations send one
 * command per bucket, pipelined, and never use a cross-slot transaction.
 * <p>
 * <b>Never flips a bucket.</b> After serialization, a value longer than the server's
 * {@code hash-max-listpack-value} (or an id too long to be a field) is stored in the bucket's
 * overflow key for that field, a plain key in the bucket's cluster slot; reads, deletes and
 * existence checks find it transparently, and a script moves a value between field and overflow key
 * atomically. A write that would take a hashed bucket past {@code hash-max-listpack-entries} is
 * refused with {@link BucketFullException}.
 * <p>
 * <b>TTL that never lies.</b> On Redis 7.4+ a per-key TTL is a hash-field TTL ({@code HPEXPIRE});
 * a plain {@link #set(String, Object)} clears it ({@code HPERSIST}), {@link #setKeepTtl} keeps it.
 * On older servers a value with a TTL goes to a plain key with that TTL, or the write is refused,
 * as the namespace's {@link TtlFallback} says.
 * <p>
 * <b>Acknowledged writes only.</b> Every method waits for Redis's replies and throws (a Spring
 * {@code DataAccessException}) on an error or time-out; it never reports a write it did not see
 * acknowledged. Thread-safe; keys and values must not be {@code null} unless stated.
 * <p>
 * Values written to overflow keys because they are too long, and every {@link #memoryReport(int)},
 * are reported to {@link SlipcaseObservers#current()}.
 *
 * @param <V> the value type
 */
public final class ShardedTemplate<V> {

	private static final byte[] ONE = { '1' };

	private static final byte[] ZERO = { '0' };

	private final ShardedConnection connection;


	private final Duration timeout;

	private final ShardedNamespace namespace;

	private final ShardLayout layout;

	private final ServerLimits limits;

	private final RedisSerializer<V> serializer;

	private final KeyPlacement placement;

	private final String hashedBucketPrefix;

	private final long bucketTtlMillis;

	/** Whether the connection is to a standalone server, where one script may touch many buckets. */
	private final boolean standalone;

	ShardedTemplate(ShardedConnection connection, Duration timeout, ShardedNamespace namespace, ShardLayout layout, ServerLimits limits,
			RedisSerializer<V> serializer) {
		this.connection = connection;
		this.timeout = timeout;
		this.namespace = namespace;
		this.layout = layout;
		this.limits = limits;
		this.serializer = serializer;
		this.placement = new KeyPlacement(namespace, layout, limits.maxValueBytes());
		this.hashedBucketPrefix = namespace.ownedKeyPrefix() + "h:";
		Duration bucketTtl = namespace.bucketTtl();
		this.bucketTtlMillis = (bucketTtl != null) ? bucketTtl.toMillis() : 0;
		this.standalone = !(connection.connection() instanceof StatefulRedisClusterConnection);
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
	 * looking at the plain key of the same name). One {@code HGET} when the value is in its bucket.
	 */
	public @Nullable V get(String key) {
		byte[] bytes = read(this.placement.locate(key));
		return (bytes != null) ? deserialize(bytes, key) : null;
	}

	/** Stores {@code value} under {@code key}, removing any TTL the key had, like {@code SET}. */
	public void set(String key, V value) {
		write(List.of(this.placement.locate(key)), List.of(serialize(value, key)), false, TtlMode.CLEAR, null);
	}

	/**
	 * Stores {@code value} under {@code key} with a TTL.
	 * @throws UnsupportedOperationException when the server cannot expire hash fields and the namespace
	 * refuses per-key TTLs ({@link TtlFallback#REFUSE}); nothing is written then
	 */
	public void set(String key, V value, Duration ttl) {
		write(List.of(this.placement.locate(key)), List.of(serialize(value, key)), false, TtlMode.SET, checkTtl(ttl));
	}

	/** Stores {@code value} under {@code key}, keeping the key's current TTL, like {@code SET KEEPTTL}. */
	public void setKeepTtl(String key, V value) {
		write(List.of(this.placement.locate(key)), List.of(serialize(value, key)), false, TtlMode.KEEP, null);
	}

	/**
	 * Stores {@code value} only when {@code key} has no value; returns whether it was stored. With
	 * read-through, an existing plain key of the same name counts as a value.
	 */
	public boolean setIfAbsent(String key, V value) {
		Location location = this.placement.locate(key);
		byte[] bytes = serialize(value, key);
		if (this.namespace.readThrough() && legacyExists(key)) {
			return false;
		}
		return write(List.of(location), List.of(bytes), true, TtlMode.CLEAR, null)[0];
	}

	/** Removes {@code key} (and, with read-through, the plain key of the same name); returns whether it existed. */
	public boolean delete(String key) {
		Location location = this.placement.locate(key);
		List<Long> reply = await(script(Script.DELETE, ScriptOutputType.MULTI,
				new byte[][] { location.bucket(), location.overflow() }, location.field()), "delete " + key);
		boolean deleted = reply.get(0) > 0;
		if (this.namespace.readThrough()) {
			deleted |= await(this.connection.commands().del(bytes(key)), "delete the plain key " + key) == 1;
		}
		return deleted;
	}

	/** Whether {@code key} has a value. */
	public boolean exists(String key) {
		return read(this.placement.locate(key)) != null;
	}

	/**
	 * Adds {@code delta} to the decimal integer stored under {@code key} and returns the new value; a
	 * missing key counts as 0. Atomic ({@code HINCRBY} in one script): concurrent increments never lose
	 * a count.
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
		Location location = this.placement.locate(key);
		Place place = place(location);
		long ttl = switch (place) {
			case ABSENT -> -2;
			case OVERFLOW -> await(this.connection.commands().pttl(location.overflow()), "read the TTL of " + key);
			case BUCKET -> fieldTtl(location);
		};
		if (ttl == -1 && place == Place.BUCKET && this.bucketTtlMillis > 0) {
			return await(this.connection.commands().pttl(location.bucket()), "read the TTL of bucket " + location.bucketName());
		}
		if (ttl == -2 && this.namespace.readThrough()) {
			return await(this.connection.commands().pttl(bytes(key)), "read the TTL of the plain key " + key);
		}
		return ttl;
	}

	/**
	 * Sets a TTL on an existing key; returns {@code false} when the key does not exist. Without
	 * hash-field expiry, a value in its bucket moves to its overflow key to carry the TTL (or the call is
	 * refused, see {@link TtlFallback}).
	 */
	public boolean expire(String key, Duration ttl) {
		Duration checked = checkTtl(ttl);
		Location location = this.placement.locate(key);
		switch (place(location)) {
			case OVERFLOW:
				return await(this.connection.commands().pexpire(location.overflow(), checked.toMillis()), "expire " + key);
			case BUCKET:
				if (this.limits.fieldExpiry()) {
					List<Long> reply = await(this.connection.commands().hpexpire(location.bucket(), checked.toMillis(), location.field()),
							"expire " + key);
					return !reply.isEmpty() && reply.get(0) == 1;
				}
				byte[] value = await(this.connection.commands().hget(location.bucket(), location.field()), "read " + key);
				if (value == null) {
					return false;
				}
				write(List.of(location), List.of(value), false, TtlMode.SET, checked);
				return true;
			default:
				return false;
		}
	}

	/** Removes the TTL of {@code key}; returns whether it had one. */
	public boolean persist(String key) {
		Location location = this.placement.locate(key);
		switch (place(location)) {
			case OVERFLOW:
				return await(this.connection.commands().persist(location.overflow()), "persist " + key);
			case BUCKET:
				if (!this.limits.fieldExpiry()) {
					return false;
				}
				List<Long> reply = await(this.connection.commands().hpersist(location.bucket(), location.field()), "persist " + key);
				return !reply.isEmpty() && reply.get(0) == 1;
			default:
				return false;
		}
	}

	// ---------------------------------------------------------------- batches

	/**
	 * The values of {@code keys}, in the same order, {@code null} where a key has none. On a standalone
	 * server, one script call reads them all; on a cluster, one {@code HMGET} per bucket, written to
	 * the connection together, then one read of the overflow keys per bucket with misses.
	 */
	public List<@Nullable V> multiGet(List<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		int n = keys.size();
		List<Location> locations = new ArrayList<>(n);
		for (String key : keys) {
			locations.add(this.placement.locate(key));
		}
		byte[][] raw = new byte[n][];
		if (this.standalone && n > 1) {
			readAtOnce(locations, raw);
		}
		else {
			readByBucket(locations, raw);
		}
		if (this.namespace.readThrough()) {
			readLegacy(keys, raw);
		}
		List<@Nullable V> result = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			result.add((raw[i] != null) ? deserialize(raw[i], keys.get(i)) : null);
		}
		return result;
	}

	/** Standalone: one script call reads every key, one HMGET per bucket, then the misses' overflow keys. */
	private void readAtOnce(List<Location> locations, byte[][] raw) {
		int n = locations.size();
		List<List<Integer>> groups = new ArrayList<>(groupByBucket(locations).values());
		byte[][] keys = new byte[groups.size() + n][];
		byte[][] args = new byte[1 + groups.size() + n][];
		int[] order = new int[n];
		args[0] = bytes(Integer.toString(groups.size()));
		int arg = 1;
		int field = 0;
		for (int g = 0; g < groups.size(); g++) {
			List<Integer> group = groups.get(g);
			keys[g] = locations.get(group.get(0)).bucket();
			args[arg++] = bytes(Integer.toString(group.size()));
			for (int index : group) {
				args[arg++] = locations.get(index).field();
				keys[groups.size() + field] = locations.get(index).overflow();
				order[field++] = index;
			}
		}
		List<Object> values = await(script(Script.READ_MANY, ScriptOutputType.MULTI, keys, args),
				"read " + n + " keys of namespace '" + this.namespace.name() + "'");
		for (int i = 0; i < n; i++) {
			raw[order[i]] = (byte[]) values.get(i);
		}
	}

	/** Any server: one HMGET per bucket, sent together, then the misses' overflow keys per bucket. */
	private void readByBucket(List<Location> locations, byte[][] raw) {
		int n = locations.size();
		boolean[] missed = new boolean[n];
		List<CompletableFuture<?>> pending = new ArrayList<>();
		List<Runnable> collect = new ArrayList<>();
		Batch batch = new Batch();
		for (List<Integer> group : groupByBucket(locations).values()) {
			List<Integer> inBucket = new ArrayList<>();
			for (int index : group) {
				if (locations.get(index).fieldFits()) {
					inBucket.add(index);
				}
				else {
					missed[index] = true;
				}
			}
			if (inBucket.isEmpty()) {
				continue;
			}
			byte[][] fields = new byte[inBucket.size()][];
			for (int i = 0; i < fields.length; i++) {
				fields[i] = locations.get(inBucket.get(i)).field();
			}
			CompletableFuture<List<KeyValue<byte[], byte[]>>> reply = batch.add(CommandType.HMGET,
					new KeyValueListOutput<>(ByteArrayCodec.INSTANCE, Arrays.asList(fields)),
					new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(locations.get(inBucket.get(0)).bucket()).addKeys(fields));
			pending.add(reply);
			collect.add(() -> {
				List<KeyValue<byte[], byte[]>> values = reply.join();
				for (int i = 0; i < inBucket.size(); i++) {
					byte[] value = values.get(i).getValueOrElse(null);
					raw[inBucket.get(i)] = value;
					missed[inBucket.get(i)] = (value == null);
				}
			});
		}
		batch.send();
		awaitAll(pending, "read " + n + " keys of namespace '" + this.namespace.name() + "'");
		collect.forEach(Runnable::run);
		readMisses(locations, raw, missed);
	}

	/**
	 * Stores every entry, removing TTLs like {@code SET}. Sends one script call (its {@code HSET}s) per
	 * bucket, pipelined; atomic per bucket, not across buckets. When a hashed bucket is full, the other
	 * buckets are still written and a {@link BucketFullException} names the refused keys.
	 */
	public void multiSet(Map<String, ? extends V> values) {
		Assert.notNull(values, "values must not be null");
		List<Location> locations = new ArrayList<>(values.size());
		List<byte[]> serialized = new ArrayList<>(values.size());
		values.forEach((key, value) -> {
			locations.add(this.placement.locate(key));
			serialized.add(serialize(value, key));
		});
		write(locations, serialized, false, TtlMode.CLEAR, null);
	}

	/**
	 * Calls {@code action} with every key and value of the namespace, bucket by bucket ({@code SCAN},
	 * then {@code HGETALL}); keys written during the iteration may or may not be seen. Plain keys read
	 * through from before a migration are not included.
	 */
	public void forEach(BiConsumer<String, ? super V> action) {
		Assert.notNull(action, "action must not be null");
		Set<String> seen = new HashSet<>();
		for (String pattern : this.placement.scanPatterns()) {
			scanEach(pattern, 200, (batch) -> visit(batch, seen, action));
		}
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
		Set<String> sampled = new java.util.LinkedHashSet<>();
		for (String pattern : this.placement.scanPatterns()) {
			if (sampled.size() < maxBuckets) {
				scan(pattern, 500, (batch) -> {
					for (byte[] key : batch) {
						Owned owned = this.placement.parse(new String(key, StandardCharsets.UTF_8));
						if (owned != null && owned.field() == null && sampled.size() < maxBuckets) {
							sampled.add(owned.bucket());
						}
					}
					return sampled.size() < maxBuckets;
				});
			}
		}
		List<String> names = new ArrayList<>(sampled);
		List<CompletableFuture<String>> encodings = new ArrayList<>();
		List<CompletableFuture<Long>> lengths = new ArrayList<>();
		List<CompletableFuture<Long>> usages = new ArrayList<>();
		for (String name : names) {
			byte[] key = bytes(name);
			encodings.add(this.connection.commands().objectEncoding(key).toCompletableFuture());
			lengths.add(this.connection.commands().hlen(key).toCompletableFuture());
			usages.add(this.connection.commands().memoryUsage(key).toCompletableFuture());
		}
		List<CompletableFuture<?>> all = new ArrayList<>(encodings);
		all.addAll(lengths);
		all.addAll(usages);
		awaitAll(all, "sample " + names.size() + " buckets of namespace '" + this.namespace.name() + "'");
		int compact = 0;
		List<String> flipped = new ArrayList<>();
		long fields = 0;
		long bytes = 0;
		double fill = 0;
		int capacity = Math.max(1, (int) Math.floor(this.limits.maxEntries() * this.namespace.fillFactor()));
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
			int bucketCapacity = names.get(i).startsWith(this.hashedBucketPrefix) ? capacity : this.layout.bucketSize();
			fill += (length != null) ? (double) length / bucketCapacity : 0;
		}
		BucketMemoryReport report = new BucketMemoryReport(this.namespace.name(), names.size(), compact, flipped.size(),
				flipped, fields, bytes, (fields > 0) ? (double) bytes / fields : 0, names.isEmpty() ? 0 : fill / names.size());
		SlipcaseObservers.current().memoryReported(report.namespace(), report.sampledBuckets(), report.flippedBuckets());
		return report;
	}

	/**
	 * A migrator moving existing plain keys of this namespace into their buckets.
	 * @throws IllegalStateException when the namespace has no key prefix to find its plain keys by
	 */
	public ShardedMigrator migrator() {
		return new ShardedMigrator(this);
	}

	// ---------------------------------------------------------------- internals shared with the migrator

	RedisClusterAsyncCommands<byte[], byte[]> commands() {
		return this.connection.commands();
	}

	KeyPlacement placement() {
		return this.placement;
	}

	/** Deserializes to check a migrated value is readable. */
	void checkReadable(byte[] bytes, String key) {
		deserialize(bytes, key);
	}

	/** What a write does to TTLs. */
	enum TtlMode {

		/** Remove any TTL, like {@code SET}. */
		CLEAR("n"),
		/** Set the given TTL. */
		SET("x"),
		/** Keep the current TTL, like {@code SET KEEPTTL}. */
		KEEP("k");

		private final byte[] code;

		TtlMode(String code) {
			this.code = code.getBytes(StandardCharsets.US_ASCII);
		}

	}

	/**
	 * Writes raw values, one script call per bucket, pipelined. NX: only where the key has no value.
	 * Returns per location whether it was written.
	 */
	boolean[] write(List<Location> locations, List<byte[]> values, boolean nx, TtlMode ttlMode, @Nullable Duration ttl) {
		if (ttlMode == TtlMode.SET && !this.limits.fieldExpiry() && this.namespace.ttlFallback() == TtlFallback.REFUSE) {
			throw new UnsupportedOperationException("Namespace '" + this.namespace.name() + "' refuses per-key TTLs "
					+ "on " + this.limits + ": the server cannot expire hash fields (HPEXPIRE needs Redis 7.4+). "
					+ "Use ttlFallback PLAIN_KEY, a bucket TTL, or a newer server.");
		}
		int n = locations.size();
		boolean[] written = new boolean[n];
		byte[] ttlMillis = bytes(Long.toString((ttl != null) ? ttl.toMillis() : 0));
		byte[] bucketTtl = bytes(Long.toString(this.bucketTtlMillis));
		byte[] fieldExpiry = this.limits.fieldExpiry() ? ONE : ZERO;
		List<List<Integer>> groups = new ArrayList<>(groupByBucket(locations).values());
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>(groups.size());
		boolean[] overflow = new boolean[n];
		Batch batch = new Batch();
		for (List<Integer> group : groups) {
			Location first = locations.get(group.get(0));
			byte[][] keys = new byte[1 + group.size()][];
			byte[][] args = new byte[6 + 3 * group.size()][];
			keys[0] = first.bucket();
			args[0] = nx ? ONE : ZERO;
			args[1] = bytes(Integer.toString(entryLimit(first)));
			args[2] = fieldExpiry;
			args[3] = ttlMode.code;
			args[4] = ttlMillis;
			args[5] = bucketTtl;
			for (int i = 0; i < group.size(); i++) {
				Location location = locations.get(group.get(i));
				byte[] value = values.get(group.get(i));
				keys[1 + i] = location.overflow();
				args[6 + 3 * i] = location.field();
				args[7 + 3 * i] = value;
				overflow[group.get(i)] = !location.fieldFits() || value.length > this.limits.maxValueBytes();
				args[8 + 3 * i] = overflow[group.get(i)] ? ZERO : ONE;
			}
			replies.add(batch.script(Script.SET, keys, args));
		}
		batch.send();
		awaitAll(replies, "write " + n + " keys of namespace '" + this.namespace.name() + "'");
		List<String> refused = new ArrayList<>();
		for (int g = 0; g < groups.size(); g++) {
			List<Integer> group = groups.get(g);
			List<Object> reply = replies.get(g).join();
			if (((Long) reply.get(0)) == -1) {
				group.forEach((index) -> refused.add(locations.get(index).key()));
				continue;
			}
			for (int i = 0; i < group.size(); i++) {
				written[group.get(i)] = ((Long) reply.get(i)) == 1;
			}
		}
		int overflowWrites = 0;
		for (int i = 0; i < n; i++) {
			if (written[i] && overflow[i]) {
				overflowWrites++;
			}
		}
		if (overflowWrites > 0) {
			SlipcaseObservers.current().overflowWritten(this.namespace.name(), overflowWrites);
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

	/** The raw value of a location, from its bucket, its overflow key or (read-through) its plain key. */
	byte @Nullable [] read(Location location) {
		byte[] bytes = readOwn(location);
		if (bytes == null && this.namespace.readThrough()) {
			bytes = await(this.connection.commands().get(bytes(location.key())), "read the plain key " + location.key());
		}
		return bytes;
	}

	/** The raw value of a location, from its bucket or its overflow key. */
	private byte @Nullable [] readOwn(Location location) {
		byte[] bytes = null;
		if (location.fieldFits()) {
			bytes = await(this.connection.commands().hget(location.bucket(), location.field()), "read " + location.key());
		}
		if (bytes == null) {
			// not in the bucket: read field and overflow key again in one atomic step, in case a
			// concurrent write just moved the value between them
			List<byte[]> reply = await(script(Script.READ, ScriptOutputType.MULTI,
					new byte[][] { location.bucket(), location.overflow() }, location.field()), "read " + location.key());
			bytes = reply.get(0);
		}
		return bytes;
	}

	/** Scans keys matching {@code pattern}, handing batches to {@code batch} until it returns false. */
	void scan(String pattern, int count, Predicate<List<byte[]>> batch) {
		ScanArgs args = ScanArgs.Builder.matches(pattern).limit(count);
		ScanCursor cursor = ScanCursor.INITIAL;
		while (true) {
			KeyScanCursor<byte[]> page = await(this.connection.commands().scan(cursor, args), "scan " + pattern);
			if (!page.getKeys().isEmpty() && !batch.test(page.getKeys())) {
				return;
			}
			if (page.isFinished()) {
				return;
			}
			cursor = page;
		}
	}

	<T> CompletableFuture<T> script(Script script, ScriptOutputType type, byte[][] keys, byte[]... args) {
		CompletableFuture<T> first = this.connection.commands().<T>evalsha(script.sha(), type, keys, args).toCompletableFuture();
		return first.handle((result, ex) -> {
			if (ex == null) {
				return CompletableFuture.completedFuture(result);
			}
			if (Replies.unwrap(ex) instanceof RedisNoScriptException) {
				return this.connection.commands().<T>eval(script.sourceBytes(), type, keys, args).toCompletableFuture();
			}
			return CompletableFuture.<T>failedFuture(Replies.unwrap(ex));
		}).thenCompose((future) -> future);
	}

	<T> T await(CompletionStage<T> reply, String what) {
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

	// ---------------------------------------------------------------- helpers

	/**
	 * Commands handed to the connection together, so that Lettuce writes and flushes them at once
	 * instead of once per command (on a cluster connection, once per node).
	 */
	private final class Batch {

		private final List<RedisCommand<byte[], byte[], ?>> commands = new ArrayList<>();

		<T> CompletableFuture<T> add(CommandType type, CommandOutput<byte[], byte[], T> output,
				CommandArgs<byte[], byte[]> args) {
			AsyncCommand<byte[], byte[], T> command = new AsyncCommand<>(new Command<>(type, output, args));
			this.commands.add(command);
			return command;
		}

		/** {@code EVALSHA} with a multi-bulk reply, retried alone with {@code EVAL} when the script is not cached. */
		CompletableFuture<List<Object>> script(Script script, byte[][] keys, byte[]... args) {
			CompletableFuture<List<Object>> first = add(CommandType.EVALSHA, new NestedMultiOutput<>(ByteArrayCodec.INSTANCE),
					new CommandArgs<>(ByteArrayCodec.INSTANCE).add(script.sha()).add(keys.length).addKeys(keys).addValues(args));
			return first.handle((result, ex) -> {
				if (ex == null) {
					return CompletableFuture.completedFuture(result);
				}
				if (Replies.unwrap(ex) instanceof RedisNoScriptException) {
					return ShardedTemplate.this.<List<Object>>script(script, ScriptOutputType.MULTI, keys, args);
				}
				return CompletableFuture.<List<Object>>failedFuture(Replies.unwrap(ex));
			}).thenCompose((future) -> future);
		}

		void send() {
			if (!this.commands.isEmpty()) {
				ShardedTemplate.this.connection.connection().dispatch(this.commands);
			}
		}

	}

	/** Where a key's value is right now. */
	private enum Place {

		BUCKET, OVERFLOW, ABSENT

	}

	private Place place(Location location) {
		if (location.fieldFits()
				&& Boolean.TRUE.equals(await(this.connection.commands().hexists(location.bucket(), location.field()), "look up " + location.key()))) {
			return Place.BUCKET;
		}
		return (await(this.connection.commands().exists(location.overflow()), "look up " + location.key()) > 0) ? Place.OVERFLOW
				: Place.ABSENT;
	}

	private long fieldTtl(Location location) {
		if (!this.limits.fieldExpiry()) {
			return -1;
		}
		List<Long> reply = await(this.connection.commands().hpttl(location.bucket(), location.field()),
				"read the TTL of " + location.key());
		return reply.isEmpty() ? -2 : reply.get(0);
	}

	private void readMisses(List<Location> locations, byte[][] raw, boolean[] missed) {
		Map<String, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < raw.length; i++) {
			if (missed[i]) {
				groups.computeIfAbsent(locations.get(i).bucketName(), (name) -> new ArrayList<>()).add(i);
			}
		}
		List<List<Integer>> order = new ArrayList<>(groups.values());
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>();
		Batch batch = new Batch();
		for (List<Integer> group : order) {
			byte[][] keys = new byte[1 + group.size()][];
			byte[][] fields = new byte[group.size()][];
			keys[0] = locations.get(group.get(0)).bucket();
			for (int i = 0; i < group.size(); i++) {
				keys[1 + i] = locations.get(group.get(i)).overflow();
				fields[i] = locations.get(group.get(i)).field();
			}
			replies.add(batch.script(Script.READ, keys, fields));
		}
		batch.send();
		awaitAll(replies, "read the overflow values of " + raw.length + " keys");
		for (int g = 0; g < order.size(); g++) {
			List<Object> values = replies.get(g).join();
			for (int i = 0; i < order.get(g).size(); i++) {
				raw[order.get(g).get(i)] = (byte[]) values.get(i);
			}
		}
	}

	private void readLegacy(List<String> keys, byte[][] raw) {
		List<Integer> missing = new ArrayList<>();
		List<CompletableFuture<byte[]>> reads = new ArrayList<>();
		for (int i = 0; i < raw.length; i++) {
			if (raw[i] == null) {
				missing.add(i);
				reads.add(this.connection.commands().get(bytes(keys.get(i))).toCompletableFuture());
			}
		}
		awaitAll(reads, "read " + reads.size() + " plain keys");
		for (int j = 0; j < missing.size(); j++) {
			raw[missing.get(j)] = reads.get(j).join();
		}
	}

	private String increment(String key, String delta, boolean floating) {
		Location location = this.placement.locate(key);
		if (!location.fieldFits()) {
			return floating
					? Double.toString(await(this.connection.commands().incrbyfloat(location.overflow(), Double.parseDouble(delta)), "increment " + key))
					: Long.toString(await(this.connection.commands().incrby(location.overflow(), Long.parseLong(delta)), "increment " + key));
		}
		if (this.namespace.readThrough()) {
			copyLegacyValue(location);
		}
		List<Object> reply = await(script(Script.INCREMENT, ScriptOutputType.MULTI,
				new byte[][] { location.bucket(), location.overflow() }, bytes(Integer.toString(entryLimit(location))),
				bytes(delta), bytes(floating ? "f" : "i"), bytes(Long.toString(this.bucketTtlMillis)), location.field()),
				"increment " + key);
		if (((Long) reply.get(0)) == -1) {
			throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + key + " not incremented "
					+ "because its hashed bucket " + location.bucketName() + " holds hash-max-listpack-entries ("
					+ this.limits.maxEntries() + ") fields already.");
		}
		return new String((byte[]) reply.get(1), StandardCharsets.US_ASCII);
	}

	/** With read-through: copies a plain key's value to its new place before it is changed in place. */
	private void copyLegacyValue(Location location) {
		if (readOwn(location) != null) {
			return;
		}
		byte[] legacy = await(this.connection.commands().get(bytes(location.key())), "read the plain key " + location.key());
		if (legacy != null) {
			long ttl = await(this.connection.commands().pttl(bytes(location.key())), "read the TTL of " + location.key());
			write(List.of(location), List.of(legacy), true, (ttl > 0) ? TtlMode.SET : TtlMode.CLEAR,
					(ttl > 0) ? Duration.ofMillis(ttl) : null);
		}
	}

	private void visit(List<byte[]> keys, Set<String> seen, BiConsumer<String, ? super V> action) {
		List<String> bucketNames = new ArrayList<>();
		List<CompletableFuture<Map<byte[], byte[]>>> buckets = new ArrayList<>();
		List<Owned> overflowKeys = new ArrayList<>();
		List<CompletableFuture<byte[]>> overflowValues = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, StandardCharsets.UTF_8);
			Owned owned = this.placement.parse(name);
			if (owned == null || !seen.add(name)) {
				continue;
			}
			if (owned.field() == null) {
				bucketNames.add(name);
				buckets.add(this.connection.commands().hgetall(key).toCompletableFuture());
			}
			else {
				overflowKeys.add(owned);
				overflowValues.add(this.connection.commands().get(key).toCompletableFuture());
			}
		}
		List<CompletableFuture<?>> all = new ArrayList<>(buckets);
		all.addAll(overflowValues);
		awaitAll(all, "read " + keys.size() + " keys of namespace '" + this.namespace.name() + "'");
		for (int i = 0; i < buckets.size(); i++) {
			for (Map.Entry<byte[], byte[]> entry : buckets.get(i).join().entrySet()) {
				String key = this.placement.logicalKey(bucketNames.get(i), new String(entry.getKey(), StandardCharsets.UTF_8));
				action.accept(key, deserialize(entry.getValue(), key));
			}
		}
		for (int i = 0; i < overflowKeys.size(); i++) {
			Owned owned = overflowKeys.get(i);
			byte[] value = overflowValues.get(i).join();
			if (value != null) {
				String key = this.placement.logicalKey(owned.bucket(), Objects.requireNonNull(owned.field()));
				action.accept(key, deserialize(value, key));
			}
		}
	}

	private void scanEach(String pattern, int count, Consumer<List<byte[]>> batch) {
		scan(pattern, count, (keys) -> {
			batch.accept(keys);
			return true;
		});
	}

	private boolean legacyExists(String key) {
		return await(this.connection.commands().exists(bytes(key)), "look up the plain key " + key) > 0;
	}

	private static Map<String, List<Integer>> groupByBucket(List<Location> locations) {
		Map<String, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < locations.size(); i++) {
			groups.computeIfAbsent(locations.get(i).bucketName(), (name) -> new ArrayList<>()).add(i);
		}
		return groups;
	}

	private int entryLimit(Location location) {
		return location.bucketName().startsWith(this.hashedBucketPrefix) ? this.limits.maxEntries() : 0;
	}

	private static Duration checkTtl(Duration ttl) {
		Assert.notNull(ttl, "ttl must not be null");
		if (ttl.isNegative() || ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1 ms, was " + ttl);
		}
		return ttl;
	}

	private byte[] serialize(@Nullable V value, String key) {
		if (value == null) {
			throw new IllegalArgumentException("value of " + key + " must not be null");
		}
		byte[] bytes;
		try {
			bytes = this.serializer.serialize(value);
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key, inNamespace(ex));
		}
		if (bytes == null) {
			throw KeyedSerializationException.of(key, "serializer " + this.serializer + " returned null");
		}
		return bytes;
	}

	private SerializationException inNamespace(SerializationException failure) {
		return new SerializationException("namespace '" + this.namespace.name() + "': " + failure.getMessage(), failure);
	}

	private V deserialize(byte[] bytes, String key) {
		try {
			V value = this.serializer.deserialize(bytes);
			if (value == null) {
				throw new SerializationException("the serializer returned null for " + bytes.length + " bytes");
			}
			return value;
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key, inNamespace(ex));
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
