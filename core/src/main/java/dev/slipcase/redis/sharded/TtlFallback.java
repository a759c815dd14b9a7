package dev.slipcase.redis.sharded;

/**
 * What a namespace does with a per-key time to live on a server without hash-field expiration
 * ({@code HPEXPIRE}, Redis 7.4+). A TTL is never silently dropped.
 */
public enum TtlFallback {

	/**
	 * Store a value that has a TTL in its overflow key (a plain key in its bucket's cluster slot) with
	 * that TTL; reads, deletes and increments find it there, and a later plain set moves it back into
	 * the bucket.
	 */
	PLAIN_KEY,

	/** Refuse the write with an {@link UnsupportedOperationException} saying why. */
	REFUSE

}
