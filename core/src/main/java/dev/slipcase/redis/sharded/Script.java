package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script run with {@code EVALSHA}, falling back to {@code EVAL} on {@code NOSCRIPT}. Every
 * script touches one bucket and its overflow keys, which share the bucket's hash tag, so it runs on
 * one cluster node, atomically.
 */
final class Script {

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
	static final Script SET = new Script("""
			local nx = ARGV[1] == '1'
			local limit = tonumber(ARGV[2])
			local hfe = ARGV[3] == '1'
			local mode = ARGV[4]
			local ttlArg = tonumber(ARGV[5])
			local bucketTtl = tonumber(ARGV[6])
			local n = (#ARGV - 6) / 3
			local plan = {}
			local added = 0
			for i = 1, n do
			  local field = ARGV[4 + 3 * i]
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
			    step.toHash = ARGV[6 + 3 * i] == '1' and (step.ttl == 0 or hfe)
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
			  local field = ARGV[4 + 3 * i]
			  local value = ARGV[5 + 3 * i]
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
			""");

	/**
	 * Reads fields of one bucket, falling back to each field's overflow key, in one atomic step.
	 * KEYS: the bucket, then the overflow key of each field. ARGV: the fields. Returns the values, nil
	 * where absent.
	 */
	static final Script READ = new Script("""
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
	static final Script READ_MANY = new Script("""
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
	static final Script DELETE = new Script("""
			local result = {}
			for i = 1, #ARGV do
			  result[i] = redis.call('HDEL', KEYS[1], ARGV[i]) + redis.call('DEL', KEYS[1 + i])
			end
			return result
			""");

	/** Deletes plain key KEYS[1] only while it still holds ARGV[1]; returns 1 when deleted. */
	static final Script DELETE_IF_VALUE = new Script("""
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
	static final Script INCREMENT = new Script("""
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

	private final String source;

	private final byte[] sourceBytes;

	private final String sha;

	private Script(String source) {
		this.source = source;
		this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
		this.sha = sha1(this.sourceBytes);
	}

	String sha() {
		return this.sha;
	}

	byte[] sourceBytes() {
		return this.sourceBytes;
	}

	@Override
	public String toString() {
		return "Script[" + this.sha + "] " + this.source.lines().findFirst().orElse("");
	}

	private static String sha1(byte[] data) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is required of every JVM", ex);
		}
	}

}
