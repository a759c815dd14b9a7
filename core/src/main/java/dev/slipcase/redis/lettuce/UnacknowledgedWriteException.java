package dev.slipcase.redis.lettuce;

import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * A write whose reply was lost with its connection and that was therefore not sent again (see
 * {@link SlipcaseCommand#write}): Redis may or may not have applied it. A caller that must know reads the
 * value back; a caller that retries may apply the write twice.
 */
public class UnacknowledgedWriteException extends RedisConnectionFailureException {

	/** An exception with {@code message}. */
	public UnacknowledgedWriteException(String message) {
		super(message);
	}

	/** An exception with {@code message}, raised on {@code cause}: the connection's own failure. */
	public UnacknowledgedWriteException(String message, Throwable cause) {
		super(message, cause);
	}

}
