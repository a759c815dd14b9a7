package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.LuaScript;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import org.jspecify.annotations.Nullable;

/**
 * The Lua scripts of the sharded template, each with its source, the layout of its {@code KEYS}
 * and {@code ARGV}, and the meaning of its reply, in one place: callers pass what a script works
 * on, and each method here builds the arguments and adds the call to a {@link Pipeline}, never a
 * caller by index. Every script touches one bucket and its overflow keys, which share the bucket's
 * hash tag, so it runs on one cluster node, atomically ({@link #readMany} aside: standalone only).
 * Each call returns the script's raw reply, the very future that cancelling cancels the call;
 * {@code written}, {@code values} and {@code incremented} read the reply once it is there. Longer
 * than most classes because it holds the Lua source of six scripts, each next to its layout.
 */
final class BucketScripts {

	private static final byte[] ONE = { '1' };

	private static final byte[] ZERO = { '0' };

	/** What a write does to TTLs: {@code ARGV[4]} of {@link #SET}. */
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
	 * How {@link #set} writes one bucket's fields.
	 *
	 * @param nx write only fields that have no value
	 * @param entryLimit the most fields the bucket may hold, 0 for no limit
	 * @param fieldExpiry whether the server expires hash fields ({@code HPEXPIRE}, Redis 7.4+)
	 * @param ttlMode what happens to TTLs
	 * @param ttlMillis the TTL of {@link TtlMode#SET}, else 0
	 * @param bucketTtlMillis the TTL the bucket and its overflow keys get on every write, 0 for none
	 */
	record SetOptions(boolean nx, int entryLimit, boolean fieldExpiry, TtlMode ttlMode, long ttlMillis,
			long bucketTtlMillis) {
	}

	/** The arguments of {@link #SET} before the first field's: those of {@link SetOptions}. */
	private static final int SET_HEADER = 6;

	/** The arguments of {@link #SET} per field: the field, the value, {@code 1} when the value fits a compact hash. */
	private static final int SET_PER_FIELD = 3;

	/**
	 * Writes fields of one bucket. KEYS: the bucket, then the overflow key of each field. ARGV: 1 NX
	 * flag, 2 entry limit (0 = none), 3 {@code 1} when the server expires hash fields, 4 TTL mode
	 * ({@code n} none: clear any TTL, {@code x} set ARGV 5, {@code k} keep the current one), 5 TTL ms,
	 * 6 bucket TTL ms (0 = none), then per field: the field, the value, {@code 1} when the value fits
	 * a compact hash. A value goes to the bucket when it fits and needs no TTL the server cannot put on
	 * a field, else to its overflow key; the other place is cleared in the same step. Returns
	 * {@code {-1}} when the new fields would pass the entry limit (nothing written), else per field 1
	 * (written) or 0 (present under NX).
	 */
	private static final LuaScript SET = LuaScript.of("""
			local nx = ARGV[1] == '1'
			local limit = tonumber(ARGV[2])
			local hfe = ARGV[3] == '1'
			local mode = ARGV[4]
			local ttlArg = tonumber(ARGV[5])
			local bucketTtl = tonumber(ARGV[6])
			local n = (#ARGV - %1$d) / %2$d
			local plan = {}
			local added = 0
			for i = 1, n do
			  local at = %1$d + %2$d * (i - 1)
			  local field = ARGV[at + 1]
			  local overflow = KEYS[1 + i]
			  local inHash = redis.call('HEXISTS', KEYS[1], field) == 1
			  local present = inHash or redis.call('EXISTS', overflow) == 1
			  local step = { write = not (nx and present), inHash = inHash, ttl = 0 }
			  if step.write then
			    if mode == 'x' then
			      step.ttl = ttlArg
			    elseif mode == 'k' then
			      local current = -1
			      if inHash then
			        if hfe then current = redis.call('HPTTL', KEYS[1], 'FIELDS', 1, field)[1] end
			      else
			        current = redis.call('PTTL', overflow)
			      end
			      if current > 0 then step.ttl = current end
			    end
			    step.toHash = ARGV[at + 3] == '1' and (step.ttl == 0 or hfe)
			    if step.toHash and not inHash then added = added + 1 end
			  end
			  plan[i] = step
			end
			if limit > 0 and added > 0 and redis.call('HLEN', KEYS[1]) + added > limit then
			  return {-1}
			end
			local result = {}
			for i = 1, n do
			  local step = plan[i]
			  local at = %1$d + %2$d * (i - 1)
			  local field = ARGV[at + 1]
			  local value = ARGV[at + 2]
			  local overflow = KEYS[1 + i]
			  if not step.write then
			    result[i] = 0
			  else
			    if step.toHash then
			      redis.call('HSET', KEYS[1], field, value)
			      if step.ttl > 0 then
			        redis.call('HPEXPIRE', KEYS[1], step.ttl, 'FIELDS', 1, field)
			      elseif hfe and step.inHash then
			        redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field)
			      end
			      if not step.inHash then redis.call('DEL', overflow) end
			    else
			      if step.ttl > 0 then
			        redis.call('SET', overflow, value, 'PX', step.ttl)
			      elseif bucketTtl > 0 then
			        redis.call('SET', overflow, value, 'PX', bucketTtl)
			      else
			        redis.call('SET', overflow, value)
			      end
			      if step.inHash then redis.call('HDEL', KEYS[1], field) end
			    end
			    result[i] = 1
			  end
			end
			if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			return result
			""".formatted(SET_HEADER, SET_PER_FIELD));

	/**
	 * Reads fields of one bucket, falling back to each field's overflow key, in one atomic step.
	 * KEYS: the bucket, then the overflow key of each field. ARGV: the fields. Returns the values,
	 * nil where absent.
	 */
	private static final LuaScript READ = LuaScript.of("""
			local result = {}
			for i = 1, #ARGV do
			  local value = redis.call('HGET', KEYS[1], ARGV[i])
			  if not value then value = redis.call('GET', KEYS[1 + i]) end
			  result[i] = value
			end
			return result
			""");

	/**
	 * Reads fields of many buckets in one call, one {@code HMGET} per bucket, each missing field
	 * falling back to its overflow key: for a standalone server only, as the keys span cluster slots.
	 * KEYS: the buckets, then the overflow key of every field in order. ARGV: the number of buckets,
	 * then per bucket its number of fields and the fields. Returns the values in that order, nil where
	 * absent.
	 */
	private static final LuaScript READ_MANY = LuaScript.of("""
			local buckets = tonumber(ARGV[1])
			local result = {}
			local found = 0
			local arg = 2
			local overflow = buckets + 1
			for b = 1, buckets do
			  local count = tonumber(ARGV[arg])
			  local values = redis.call('HMGET', KEYS[b], unpack(ARGV, arg + 1, arg + count))
			  for i = 1, count do
			    local value = values[i]
			    if not value then value = redis.call('GET', KEYS[overflow]) end
			    found = found + 1
			    result[found] = value
			    overflow = overflow + 1
			  end
			  arg = arg + count + 1
			end
			return result
			""");

	/**
	 * Deletes fields of one bucket and their overflow keys. KEYS: the bucket, then the overflow key
	 * of each field. ARGV: the fields. Returns per field 1 when it existed, else 0.
	 */
	private static final LuaScript DELETE = LuaScript.of("""
			local result = {}
			for i = 1, #ARGV do
			  result[i] = redis.call('HDEL', KEYS[1], ARGV[i]) + redis.call('DEL', KEYS[1 + i])
			end
			return result
			""");

	/** Deletes plain key KEYS[1] only while it still holds ARGV[1]; returns 1 when deleted. */
	private static final LuaScript DELETE_IF_VALUE = LuaScript.of("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('DEL', KEYS[1])
			end
			return 0
			""");

	/**
	 * Increments a value where it lives: in its overflow key when it is there (keeping that key's TTL),
	 * else as a field, refusing a new field beyond the entry limit. KEYS: the bucket, the overflow key.
	 * ARGV: 1 entry limit (0 = none), 2 increment, 3 {@code f} for a float increment, 4 bucket TTL ms
	 * (0 = none), 5 the field. Returns {@code {-1}} when full, else {@code {1, new value as text}}.
	 */
	private static final LuaScript INCREMENT = LuaScript.of("""
			local limit = tonumber(ARGV[1])
			local floating = ARGV[3] == 'f'
			local inHash = redis.call('HEXISTS', KEYS[1], ARGV[5]) == 1
			if not inHash and redis.call('EXISTS', KEYS[2]) == 1 then
			  if floating then
			    return {1, redis.call('INCRBYFLOAT', KEYS[2], ARGV[2])}
			  end
			  return {1, tostring(redis.call('INCRBY', KEYS[2], ARGV[2]))}
			end
			if limit > 0 and not inHash and redis.call('HLEN', KEYS[1]) >= limit then
			  return {-1}
			end
			local value
			if floating then
			  value = redis.call('HINCRBYFLOAT', KEYS[1], ARGV[5], ARGV[2])
			else
			  value = tostring(redis.call('HINCRBY', KEYS[1], ARGV[5], ARGV[2]))
			end
			if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
			return {1, value}
			""");

	private BucketScripts() {
	}

	/**
	 * Adds {@link #SET} of fields of one bucket.
	 * @param locations the fields' locations, all in one bucket
	 * @param values the value of each location
	 * @param fitsHash per location whether its value fits a compact hash
	 */
	static CompletableFuture<List<Object>> set(Pipeline<byte[], byte[]> pipeline, SetOptions options,
			List<Location> locations, List<byte[]> values, boolean[] fitsHash) {
		List<byte[]> keys = bucketAndOverflowKeys(locations);
		return pipeline.script(SET, BucketScripts::multi, keys, (argv) -> {
			argv.addValue(options.nx() ? ONE : ZERO)
				.addValue(decimal(options.entryLimit()))
				.addValue(options.fieldExpiry() ? ONE : ZERO)
				.addValue(options.ttlMode().code)
				.addValue(decimal(options.ttlMillis()))
				.addValue(decimal(options.bucketTtlMillis()));
			for (int i = 0; i < locations.size(); i++) {
				argv.addValue(locations.get(i).field()).addValue(values.get(i)).addValue(fitsHash[i] ? ONE : ZERO);
			}
		});
	}

	/**
	 * What a {@link #set} reply says of each field: whether it was written, or {@code null} when
	 * the bucket was full and nothing was.
	 */
	static boolean @Nullable [] written(List<Object> reply) {
		if ((Long) reply.get(0) == -1) {
			return null;
		}
		boolean[] written = new boolean[reply.size()];
		for (int i = 0; i < written.length; i++) {
			written[i] = (Long) reply.get(i) == 1;
		}
		return written;
	}

	/** Adds {@link #READ} of fields of one bucket, each falling back to its overflow key. */
	static CompletableFuture<List<Object>> read(Pipeline<byte[], byte[]> pipeline, List<Location> locations) {
		return pipeline.script(READ, BucketScripts::multi, bucketAndOverflowKeys(locations),
				(argv) -> locations.forEach((location) -> argv.addValue(location.field())));
	}

	/** Adds {@link #READ_MANY} of the fields of many buckets (standalone only); the values come back in the order given. */
	static CompletableFuture<List<Object>> readMany(Pipeline<byte[], byte[]> pipeline, List<List<Location>> buckets) {
		List<byte[]> keys = new ArrayList<>();
		buckets.forEach((bucket) -> keys.add(bucket.get(0).bucket()));
		buckets.forEach((bucket) -> bucket.forEach((location) -> keys.add(location.overflow())));
		return pipeline.script(READ_MANY, BucketScripts::multi, keys, (argv) -> {
			argv.addValue(decimal(buckets.size()));
			for (List<Location> bucket : buckets) {
				argv.addValue(decimal(bucket.size()));
				bucket.forEach((location) -> argv.addValue(location.field()));
			}
		});
	}

	/** The values of a {@link #read} or {@link #readMany} reply, {@code null} where absent. */
	static List<byte @Nullable []> values(List<Object> reply) {
		List<byte @Nullable []> values = new ArrayList<>(reply.size());
		reply.forEach((value) -> values.add((byte[]) value));
		return values;
	}

	/** Adds {@link #DELETE} of fields of one bucket and their overflow keys. */
	static CompletableFuture<List<Object>> delete(Pipeline<byte[], byte[]> pipeline, List<Location> locations) {
		return pipeline.script(DELETE, BucketScripts::multi, bucketAndOverflowKeys(locations),
				(argv) -> locations.forEach((location) -> argv.addValue(location.field())));
	}

	/** Whether a {@link #delete} reply says field {@code index} existed. */
	static boolean existed(List<Object> reply, int index) {
		return (Long) reply.get(index) > 0;
	}

	/** Adds {@link #DELETE_IF_VALUE}: whether plain key {@code key} still held {@code value} and was deleted (1) or not (0). */
	static CompletableFuture<Long> deleteIfValue(Pipeline<byte[], byte[]> pipeline, byte[] key, byte[] value) {
		return pipeline.script(DELETE_IF_VALUE, () -> new IntegerOutput<>(ByteArrayCodec.INSTANCE), List.of(key),
				(argv) -> argv.addValue(value));
	}

	/**
	 * Adds {@link #INCREMENT} of one field.
	 * @param delta the increment, as decimal text
	 */
	static CompletableFuture<List<Object>> increment(Pipeline<byte[], byte[]> pipeline, Location location,
			int entryLimit, String delta, boolean floating, long bucketTtlMillis) {
		return pipeline.script(INCREMENT, BucketScripts::multi, List.of(location.bucket(), location.overflow()),
				(argv) -> argv.addValue(decimal(entryLimit))
					.addValue(delta.getBytes(StandardCharsets.US_ASCII))
					.addValue(floating ? new byte[] { 'f' } : new byte[] { 'i' })
					.addValue(decimal(bucketTtlMillis))
					.addValue(location.field()));
	}

	/** The new value of an {@link #increment} reply as text, or {@code null} when the bucket was full. */
	static @Nullable String incremented(List<Object> reply) {
		return ((Long) reply.get(0) == -1) ? null : new String((byte[]) reply.get(1), StandardCharsets.US_ASCII);
	}

	/** KEYS of the scripts on one bucket: the bucket, then the overflow key of each location. */
	private static List<byte[]> bucketAndOverflowKeys(List<Location> locations) {
		List<byte[]> keys = new ArrayList<>(1 + locations.size());
		keys.add(locations.get(0).bucket());
		locations.forEach((location) -> keys.add(location.overflow()));
		return keys;
	}

	private static NestedMultiOutput<byte[], byte[]> multi() {
		return new NestedMultiOutput<>(ByteArrayCodec.INSTANCE);
	}

	private static byte[] decimal(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

}
