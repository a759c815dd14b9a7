package dev.slipcase.redis.sharded;

/**
 * What a namespace does with a per-key time to live on a server without hash-field expiration
 * ({@code HPEXPIRE}, Redis 7.4+). A TTL is never silently dropped.
 */
public enum TtlFallback {

	/**
	 * Store a value that has a TTL in a plain key of its own with that TTL; the bucket keeps a
	 * small marker pointing at it, which is removed when the value is read after it expired or when
	 * the key is written or deleted again.
	 */
	PLAIN_KEY,

	/** Refuse the write with an {@link UnsupportedOperationException} saying why. */
	REFUSE

}
