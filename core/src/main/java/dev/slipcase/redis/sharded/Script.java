package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script run with {@code EVALSHA}, falling back to {@code EVAL} on {@code NOSCRIPT}. Every
 * script touches one bucket only ({@code KEYS[1]}), so it runs on a cluster too.
 */
final class Script {

	/**
	 * Writes fields of one bucket. ARGV: 1 NX flag, 2 entry limit (0 = none), 3 field-TTL mode
	 * ({@code n} none, {@code p} HPERSIST overwritten fields, {@code x} HPEXPIRE all), 4 TTL ms,
	 * 5 bucket TTL ms (0 = none), then field/value pairs. Returns {@code {-1}} when the new fields
	 * would pass the entry limit (nothing written), else per field a status (1 written, 0 present
	 * under NX) and the overwritten overflow marker or an empty string.
	 */
	static final Script SET = new Script("""
			local nx = ARGV[1] == '1'
			local limit = tonumber(ARGV[2])
			local mode = ARGV[3]
			local ttl = tonumber(ARGV[4])
			local bucketTtl = tonumber(ARGV[5])
			local n = (#ARGV - 5) / 2
			local olds = {}
			local added = 0
			for i = 1, n do
			  local old = redis.call('HGET', KEYS[1], ARGV[4 + 2 * i])
			  olds[i] = old
			  if not old then added = added + 1 end
			end
			if limit > 0 and added > 0 and redis.call('HLEN', KEYS[1]) + added > limit then
			  return {-1}
			end
			local result = {}
			for i = 1, n do
			  local field = ARGV[4 + 2 * i]
			  local old = olds[i]
			  if nx and old then
			    result[2 * i - 1] = 0
			    result[2 * i] = ''
			  else
			    redis.call('HSET', KEYS[1], field, ARGV[5 + 2 * i])
			    if mode == 'x' then
			      redis.call('HPEXPIRE', KEYS[1], ttl, 'FIELDS', 1, field)
			    elseif mode == 'p' and old then
			      redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, field)
			    end
			    result[2 * i - 1] = 1
			    if old and string.len(old) == 9 and string.byte(old, 1) == 0 then
			      result[2 * i] = old
			    else
			      result[2 * i] = ''
			    end
			  end
			end
			if bucketTtl > 0 then redis.call('PEXPIRE', KEYS[1], bucketTtl) end
			return result
			""");

	/**
	 * Deletes fields of one bucket. ARGV: the fields. Returns per field 1/0 (existed) and the
	 * deleted overflow marker or an empty string.
	 */
	static final Script DELETE = new Script("""
			local result = {}
			for i = 1, #ARGV do
			  local old = redis.call('HGET', KEYS[1], ARGV[i])
			  if old then
			    redis.call('HDEL', KEYS[1], ARGV[i])
			    result[2 * i - 1] = 1
			    if string.len(old) == 9 and string.byte(old, 1) == 0 then
			      result[2 * i] = old
			    else
			      result[2 * i] = ''
			    end
			  else
			    result[2 * i - 1] = 0
			    result[2 * i] = ''
			  end
			end
			return result
			""");

	/** Deletes field ARGV[1] only while it still holds marker ARGV[2]; returns 1 when deleted. */
	static final Script DELETE_IF_MARKER = new Script("""
			if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
			  return redis.call('HDEL', KEYS[1], ARGV[1])
			end
			return 0
			""");

	/** Deletes plain key KEYS[1] only while it still holds ARGV[1]; returns 1 when deleted. */
	static final Script DELETE_IF_VALUE = new Script("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('DEL', KEYS[1])
			end
			return 0
			""");

	/**
	 * Increments a field, refusing a new field beyond the entry limit. ARGV: 1 entry limit (0 = none),
	 * 2 increment, 3 {@code f} for a float increment, 4 bucket TTL ms (0 = none), 5 the field. Returns
	 * {@code {-1}} when full, else {@code {1, new value as a string}}.
	 */
	static final Script INCREMENT = new Script("""
			local limit = tonumber(ARGV[1])
			if limit > 0 and redis.call('HEXISTS', KEYS[1], ARGV[5]) == 0
			    and redis.call('HLEN', KEYS[1]) >= limit then
			  return {-1}
			end
			local value
			if ARGV[3] == 'f' then
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
