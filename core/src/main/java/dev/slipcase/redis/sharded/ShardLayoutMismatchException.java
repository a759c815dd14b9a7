package dev.slipcase.redis.sharded;

/**
 * The layout stored in Redis for a namespace differs from the configured one, so a template would
 * look for every key in the wrong bucket; the template refuses to start.
 */
public class ShardLayoutMismatchException extends IllegalStateException {

	public ShardLayoutMismatchException(String message) {
		super(message);
	}

}
