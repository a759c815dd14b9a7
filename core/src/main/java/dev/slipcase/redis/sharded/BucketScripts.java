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
 * hash tag, so it runs on one cluster node, atomically.
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
	 * @param plainKeyGuard with read-through, the plain key whose value one field's value is a copy
	 * of: the write happens only while that key still holds it; {@code null} for none (a cluster
	 * keeps the plain key in another slot)
	 */
	record SetOptions(boolean nx, int entryLimit, boolean fieldExpiry, TtlMode ttlMode, long ttlMillis,
			long bucketTtlMillis, byte @Nullable [] plainKeyGuard) {
	}

	/** Where {@link #SET} puts a value: its {@code place} argument. */
	enum Place {

		/** In the bucket, unless it needs a TTL the server cannot put on a field. */
		FIELD("h"),
		/** In the overflow key, with the {@link FieldValues#OVERFLOW marker} in the bucket: too long for a compact hash. */
		MARKED_OVERFLOW("o"),
		/** In the overflow key alone: the field name itself is too long for a compact hash. */
		OVERFLOW_ONLY("k");

		private final byte[] code;

		Place(String code) {
			this.code = code.getBytes(StandardCharsets.US_ASCII);
		}

		/**
		 * Where the value of {@code location} goes, given the bytes its field would take
		 * ({@link FieldValues#encodedLength}) and the longest value a compact hash keeps.
		 */
		static Place of(Location location, int fieldBytes, int maxValueBytes) {
			if (!location.fieldFits()) {
				return OVERFLOW_ONLY;
			}
			return (fieldBytes <= maxValueBytes) ? FIELD : MARKED_OVERFLOW;
		}

	}

	/**
	 * The arguments of {@link #SET} before the first field's: those of {@link SetOptions}, the
	 * marker, then whether the last key is a plain key guard.
	 */
	private static final int SET_HEADER = 8;

	/** The arguments of {@link #SET} per field: the field, the value, its {@link Place}. */
	private static final int SET_PER_FIELD = 3;

	/**
	 * Lua: {@code value} as a bucket field stores it, see {@link FieldValues#add}; {@code \247} is
	 * the escape byte {@code 0xF7}.
	 */
	private static final String ESCAPE_FUNCTION = """
			local function escape(value)
			  if string.byte(value, 1) == 247 then return '\\247' .. value end
			  return value
			end
			""";

	/**
	 * Writes fields of one bucket. KEYS: the bucket, then the overflow key of each field. ARGV: 1 NX
	 * flag, 2 entry limit (0 = none), 3 {@code 1} when the server expires hash fields, 4 TTL mode
	 * ({@code n} none: clear any TTL, {@code x} set ARGV 5, {@code k} keep the current one), 5 TTL ms,
	 * 6 bucket TTL ms (0 = none), 7 the overflow marker, 8 {@code 1} when the last key is a plain
	 * key that must still hold the (one) field's value, else {@code 0}, then per field: the field, the
	 * value, its {@link Place}. Under the guard, nothing is written (every field 0) when the plain
	 * key no longer holds the value: a copy of a plain value never lands after a delete of it. A
	 * value goes to the bucket when it fits and needs no TTL the server cannot put on a field, else
	 * to its overflow key with the marker in its field (unless the field itself is too
	 * long); the other place is cleared in the same step, and a marker whose overflow key expired
	 * counts as no value. Run on the bucket alone (KEYS: the bucket only, as {@link Pipeline} sends it
	 * mid-migration), it writes only values that go to fields holding a value already, not the
	 * marker, where no overflow key can be left to clear (a new field's could: one left by an
	 * expired bucket, or by an id too long for a field before the server's limit was raised), and
	 * otherwise returns {@code {-2}}, changing nothing. Returns {@code {-1, count}} when the new fields would pass the entry limit
	 * (nothing written), else per field 1 (written) or 0 (present under NX), then the bucket's
	 * field count after the write; a count is -1 where there is no entry limit or the guard stopped
	 * the write.
	 */
	private static final LuaScript SET = LuaScript.of(ESCAPE_FUNCTION + """
			local nx = ARGV[1] == '1'
			local limit = tonumber(ARGV[2])
			local hfe = ARGV[3] == '1'
			local mode = ARGV[4]
			local ttlArg = tonumber(ARGV[5])
			local bucketTtl = tonumber(ARGV[6])
			local marker = ARGV[7]
			local n = (#ARGV - %1$d) / %2$d
			local alone = #KEYS == 1
			if ARGV[8] == '1' then
			  if alone then return {-2} end
			  local plain = redis.pcall('GET', KEYS[#KEYS])
			  if type(plain) ~= 'string' or plain ~= ARGV[%1$d + 2] then
			    local none = {}
			    for i = 1, n do none[i] = 0 end
			    none[n + 1] = -1
			    return none
			  end
			end
			local plan = {}
			local added = 0
			for i = 1, n do
			  local at = %1$d + %2$d * (i - 1)
			  local field = ARGV[at + 1]
			  local place = ARGV[at + 3]
			  local overflow = KEYS[1 + i]
			  local current = false
			  if place ~= 'k' then current = redis.call('HGET', KEYS[1], field) end
			  if alone and (place ~= 'h' or not current or current == marker) then return {-2} end
			  local marked = current == marker
			  local step = { hadField = current ~= false, inHash = current ~= false and not marked, place = place, ttl = 0 }
			  if marked and redis.call('EXISTS', overflow) == 0 then marked = false end
			  step.marked = marked
			  local present = step.inHash or marked or (place == 'k' and redis.call('EXISTS', overflow) == 1)
			  step.write = not (nx and present)
			  if step.write then
			    if mode == 'x' then
			      step.ttl = ttlArg
			    elseif mode == 'k' then
			      local left = -1
			      if step.inHash then
			        if hfe then left = redis.call('HPTTL', KEYS[1], 'FIELDS', 1, field)[1] end
			      elseif marked or place == 'k' then
			        left = redis.call('PTTL', overflow)
			      end
			      if left > 0 then step.ttl = left end
			    end
			    step.toHash = place == 'h' and (step.ttl == 0 or hfe)
			    if alone and not step.toHash then return {-2} end
			    if place ~= 'k' and not step.hadField then added = added + 1 end
			  end
			  plan[i] = step
			end
			local count = -1
			if limit > 0 then count = redis.call('HLEN', KEYS[1]) end
			if limit > 0 and added > 0 and count + added > limit then
			  return {-1, count}
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
			    local fieldTtl = 0
			    if step.toHash then
			      redis.call('HSET', KEYS[1], field, escape(value))
			      fieldTtl = step.ttl
			      if not alone then redis.call('DEL', overflow) end
			    else
			      local keyTtl = step.ttl
			      if keyTtl == 0 then keyTtl = bucketTtl end
			      if keyTtl > 0 then
			        redis.call('SET', overflow, value, 'PX', keyTtl)
			      else
			        redis.call('SET', overflow, value)
			      end
			      if step.place ~= 'k' then
			        redis.call('HSET', KEYS[1], field, marker)
			        fieldTtl = step.ttl
			      end
			    end
			    if hfe and step.place ~= 'k' then
			      if fieldTtl > 0 then
			        redis.call('HPEXPIRE', KEYS[1], fieldTtl, 'FIELDS', 1, field)
			      elseif step.hadField then
			        redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field)
			      end
			    end
			    result[i] = 1
			  end
			end
			if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			if limit > 0 then result[n + 1] = count + added else result[n + 1] = -1 end
			return result
			""".formatted(SET_HEADER, SET_PER_FIELD));

	/**
	 * Reads fields of one bucket in one atomic step, following each marker to its overflow key: what
	 * a read falls back to when a marker's overflow key was gone a moment ago (a concurrent write
	 * moved the value, or the overflow key expired, in which case its marker is removed here). KEYS:
	 * the bucket, then the overflow key of each field. ARGV: the marker, then the fields. Returns the
	 * values as they were written, nil where absent.
	 */
	private static final LuaScript READ = LuaScript.of("""
			local marker = ARGV[1]
			local result = {}
			for i = 2, #ARGV do
			  local value = redis.call('HGET', KEYS[1], ARGV[i])
			  if value == marker then
			    value = redis.call('GET', KEYS[i])
			    if not value then redis.call('HDEL', KEYS[1], ARGV[i]) end
			  elseif value and string.byte(value, 1) == 247 then
			    value = string.sub(value, 2)
			  end
			  result[i - 1] = value
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
	 * Increments a value where it lives: in its overflow key when its field holds the marker (keeping
	 * that key's TTL), else in its field, refusing a new field beyond the entry limit. When the new
	 * value might be longer than a compact hash keeps (any float; an integer when the server keeps
	 * fewer than 20 bytes), it is computed in the overflow key first and moved to the field only when
	 * it fits, else the field gets the marker: the bucket never leaves its compact encoding; a value in
	 * its overflow key moves back to its field once it fits again (and its TTL, if any, can go with
	 * it). KEYS: the
	 * bucket, the overflow key. ARGV: 1 entry limit (0 = none), 2 increment, 3 {@code f} for a float
	 * increment, 4 bucket TTL ms (0 = none), 5 the field, 6 the marker, 7 the longest value a compact
	 * hash keeps, 8 {@code 1} when the server expires hash fields. Run on the bucket alone, it
	 * increments only a field holding no marker by {@code HINCRBY}, else returns {@code {-2}},
	 * changing nothing. Returns {@code {-1, count}} when
	 * full, else {@code {1, new value as text, count}}, the count being the bucket's fields (-1
	 * without an entry limit); an error when the value is no number (nothing changed).
	 */
	private static final LuaScript INCREMENT = LuaScript.of("""
			local limit = tonumber(ARGV[1])
			local delta = ARGV[2]
			local op = 'INCRBY'
			if ARGV[3] == 'f' then op = 'INCRBYFLOAT' end
			local bucketTtl = tonumber(ARGV[4])
			local field = ARGV[5]
			local marker = ARGV[6]
			local maxValue = tonumber(ARGV[7])
			local hfe = ARGV[8] == '1'
			local function count()
			  if limit > 0 then return redis.call('HLEN', KEYS[1]) end
			  return -1
			end
			local current = redis.call('HGET', KEYS[1], field)
			if #KEYS == 1 and (current == marker or op ~= 'INCRBY' or maxValue < 20) then return {-2} end
			if current == marker then
			  if redis.call('EXISTS', KEYS[2]) == 1 then
			    redis.call(op, KEYS[2], delta)
			    local value = redis.call('GET', KEYS[2])
			    local left = redis.call('PTTL', KEYS[2])
			    if #value <= maxValue and (left <= 0 or hfe) then
			      redis.call('HSET', KEYS[1], field, value)
			      redis.call('DEL', KEYS[2])
			      if left > 0 then redis.call('HPEXPIRE', KEYS[1], left, 'FIELDS', 1, field)
			      elseif hfe then redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field) end
			    end
			    return {1, value, count()}
			  end
			  redis.call('HDEL', KEYS[1], field)
			  current = false
			end
			if not current and limit > 0 then
			  local fields = redis.call('HLEN', KEYS[1])
			  if fields >= limit then return {-1, fields} end
			end
			if op == 'INCRBY' and maxValue >= 20 then
			  redis.call('HINCRBY', KEYS[1], field, delta)
			  if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			  return {1, redis.call('HGET', KEYS[1], field), count()}
			end
			local ttl = -1
			if current and hfe then ttl = redis.call('HPTTL', KEYS[1], 'FIELDS', 1, field)[1] end
			redis.call('SET', KEYS[2], current or '0')
			local reply = redis.pcall(op, KEYS[2], delta)
			if type(reply) == 'table' and reply.err then
			  redis.call('DEL', KEYS[2])
			  return reply
			end
			local value = redis.call('GET', KEYS[2])
			if #value <= maxValue then
			  redis.call('HSET', KEYS[1], field, value)
			  redis.call('DEL', KEYS[2])
			else
			  redis.call('HSET', KEYS[1], field, marker)
			  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl)
			  elseif bucketTtl > 0 then redis.call('PEXPIRE', KEYS[2], bucketTtl) end
			end
			if ttl > 0 then redis.call('HPEXPIRE', KEYS[1], ttl, 'FIELDS', 1, field) end
			if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			return {1, value, count()}
			""");

	/**
	 * Sets the TTL of one key where its value lives, in one atomic step, so that no write between a
	 * read and a write-back is undone: a value in its field gets a field TTL where the server expires
	 * hash fields, else moves to its overflow key with the TTL (the marker in its field, as
	 * {@link #SET} does with a TTL); a value in its overflow key (behind the marker, or alone when the
	 * field name is too long) gets the TTL there, and its marker too where fields expire. KEYS: the
	 * bucket, the overflow key. ARGV: 1 the field (empty when it does not fit a compact hash), 2 TTL
	 * ms, 3 the marker, 4 bucket TTL ms (0 = none), 5 {@code 1} when the server expires hash fields,
	 * 6 {@code 1} when a value may move to its overflow key for its TTL. Returns 1 when the key had a
	 * value and got the TTL, 0 when it had none, -1 when it would have to move and may not (nothing
	 * changed).
	 */
	private static final LuaScript EXPIRE = LuaScript.of("""
			local field = ARGV[1]
			local ttl = ARGV[2]
			local marker = ARGV[3]
			local bucketTtl = tonumber(ARGV[4])
			local hfe = ARGV[5] == '1'
			if field ~= '' then
			  local current = redis.call('HGET', KEYS[1], field)
			  if not current then return 0 end
			  if current ~= marker then
			    if hfe then
			      return redis.call('HPEXPIRE', KEYS[1], ttl, 'FIELDS', 1, field)[1] == 1 and 1 or 0
			    end
			    if ARGV[6] ~= '1' then return -1 end
			    if string.byte(current, 1) == 247 then current = string.sub(current, 2) end
			    redis.call('SET', KEYS[2], current, 'PX', ttl)
			    redis.call('HSET', KEYS[1], field, marker)
			    if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			    return 1
			  end
			  if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
			  if hfe then redis.call('HPEXPIRE', KEYS[1], ttl, 'FIELDS', 1, field) end
			end
			return redis.call('PEXPIRE', KEYS[2], ttl)
			""");

	/**
	 * Removes the TTL of one key where its value lives, in one atomic step, so that a write racing
	 * it never has its TTL removed by a {@code persist} that looked before it: a value in its field
	 * loses its field TTL where the server expires hash fields (elsewhere a field has none); a value
	 * in its overflow key (behind the marker, or alone when the field name is too long) loses the
	 * TTL there, and its marker too where fields expire. KEYS: the bucket, the overflow key. ARGV: 1
	 * the field (empty when it does not fit a compact hash), 2 the marker, 3 {@code 1} when the
	 * server expires hash fields. Returns 1 when the key had a TTL and lost it, else 0.
	 */
	private static final LuaScript PERSIST = LuaScript.of("""
			local field = ARGV[1]
			local hfe = ARGV[3] == '1'
			if field ~= '' then
			  local current = redis.call('HGET', KEYS[1], field)
			  if not current then return 0 end
			  if current ~= ARGV[2] then
			    if not hfe then return 0 end
			    return redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field)[1] == 1 and 1 or 0
			  end
			  if hfe then redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field) end
			end
			return redis.call('PERSIST', KEYS[2])
			""");

	private BucketScripts() {
	}

	/**
	 * Adds {@link #SET} of fields of one bucket.
	 * @param locations the fields' locations, all in one bucket
	 * @param values the value of each location
	 * @param places where each value goes
	 */
	static CompletableFuture<List<Object>> set(Pipeline<byte[], byte[]> pipeline, SetOptions options,
			List<Location> locations, List<byte[]> values, List<Place> places) {
		List<byte[]> keys = bucketAndOverflowKeys(locations);
		byte[] guard = options.plainKeyGuard();
		if (guard != null) {
			if (locations.size() != 1) {
				throw new IllegalArgumentException("A plain key guard covers one field, not " + locations.size());
			}
			keys.add(guard);
		}
		return pipeline.script(SET, BucketScripts::multi, keys, (argv) -> {
			argv.addValue(options.nx() ? ONE : ZERO)
				.addValue(decimal(options.entryLimit()))
				.addValue(options.fieldExpiry() ? ONE : ZERO)
				.addValue(options.ttlMode().code)
				.addValue(decimal(options.ttlMillis()))
				.addValue(decimal(options.bucketTtlMillis()))
				.addValue(FieldValues.OVERFLOW)
				.addValue((guard != null) ? ONE : ZERO);
			for (int i = 0; i < locations.size(); i++) {
				argv.addValue(locations.get(i).field()).addValue(values.get(i)).addValue(places.get(i).code);
			}
		}, BucketScripts::needsEveryKey);
	}

	/**
	 * What a {@link #set} reply says of each field: whether it was written, or {@code null} when
	 * the bucket was full and nothing was.
	 */
	static boolean @Nullable [] written(List<Object> reply) {
		if ((Long) reply.get(0) == -1) {
			return null;
		}
		boolean[] written = new boolean[reply.size() - 1];
		for (int i = 0; i < written.length; i++) {
			written[i] = (Long) reply.get(i) == 1;
		}
		return written;
	}

	/**
	 * The bucket's field count after a {@link #set} or {@link #increment} (after none, when the
	 * bucket was full), -1 where the script had no entry limit to count for.
	 */
	static long count(List<Object> reply) {
		return (Long) reply.get(reply.size() - 1);
	}

	/** Adds {@link #READ} of fields of one bucket, each marker followed to its overflow key. */
	static CompletableFuture<List<Object>> read(Pipeline<byte[], byte[]> pipeline, List<Location> locations) {
		return pipeline.script(READ, BucketScripts::multi, bucketAndOverflowKeys(locations), (argv) -> {
			argv.addValue(FieldValues.OVERFLOW);
			locations.forEach((location) -> argv.addValue(location.field()));
		});
	}

	/** The values of a {@link #read} reply, {@code null} where absent. */
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
			int entryLimit, String delta, boolean floating, long bucketTtlMillis, ServerLimits limits) {
		return pipeline.script(INCREMENT, BucketScripts::multi, List.of(location.bucket(), location.overflow()),
				(argv) -> argv.addValue(decimal(entryLimit))
					.addValue(delta.getBytes(StandardCharsets.US_ASCII))
					.addValue(floating ? new byte[] { 'f' } : new byte[] { 'i' })
					.addValue(decimal(bucketTtlMillis))
					.addValue(location.field())
					.addValue(FieldValues.OVERFLOW)
					.addValue(decimal(limits.maxValueBytes()))
					.addValue(limits.fieldExpiry() ? ONE : ZERO), BucketScripts::needsEveryKey);
	}

	/**
	 * Adds {@link #EXPIRE} of one key: 1 when it had a value and got the TTL, 0 when it had none, -1
	 * when its value would have to move to its overflow key and {@code mayMove} is {@code false}.
	 */
	static CompletableFuture<Long> expire(Pipeline<byte[], byte[]> pipeline, Location location, long ttlMillis,
			long bucketTtlMillis, ServerLimits limits, boolean mayMove) {
		return pipeline.script(EXPIRE, () -> new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				List.of(location.bucket(), location.overflow()),
				(argv) -> argv.addValue(location.fieldFits() ? location.field() : new byte[0])
					.addValue(decimal(ttlMillis))
					.addValue(FieldValues.OVERFLOW)
					.addValue(decimal(bucketTtlMillis))
					.addValue(limits.fieldExpiry() ? ONE : ZERO)
					.addValue(mayMove ? ONE : ZERO));
	}

	/** Adds {@link #PERSIST} of one key: 1 when it had a TTL and lost it, else 0. */
	static CompletableFuture<Long> persist(Pipeline<byte[], byte[]> pipeline, Location location, ServerLimits limits) {
		return pipeline.script(PERSIST, () -> new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				List.of(location.bucket(), location.overflow()),
				(argv) -> argv.addValue(location.fieldFits() ? location.field() : new byte[0])
					.addValue(FieldValues.OVERFLOW)
					.addValue(limits.fieldExpiry() ? ONE : ZERO));
	}

	/** The new value of an {@link #increment} reply as text, or {@code null} when the bucket was full. */
	static @Nullable String incremented(List<Object> reply) {
		return ((Long) reply.get(0) == -1) ? null : new String((byte[]) reply.get(1), StandardCharsets.US_ASCII);
	}

	/** Whether a {@link #set} or {@link #increment} run on its bucket alone needs the overflow keys too: {@code {-2}}. */
	private static boolean needsEveryKey(List<Object> reply) {
		return !reply.isEmpty() && reply.get(0) instanceof Long first && first == -2;
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
