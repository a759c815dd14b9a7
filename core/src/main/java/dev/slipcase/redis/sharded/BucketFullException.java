package dev.slipcase.redis.sharded;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * A write was refused because it would have added fields to a hashed bucket beyond the server's
 * listpack entry limit, which would convert the bucket to the large encoding for good. Nothing of
 * the refused write was stored. Raise the namespace's bucket count (or expected keys) in a new
 * namespace and migrate.
 */
public class BucketFullException extends DataAccessResourceFailureException {

	public BucketFullException(String message) {
		super(message);
	}

}
