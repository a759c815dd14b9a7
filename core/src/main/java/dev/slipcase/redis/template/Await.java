package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;

/**
 * Waits for a command's future on behalf of the sync API: the result, or the failure's own
 * {@code RuntimeException} (a {@code SerializationException} stays one); a command that times
 * out or whose caller is interrupted is cancelled, which releases its buffers.
 */
final class Await {

	private Await() {
	}

	static <T> T result(CompletableFuture<T> future, Duration timeout) {
		try {
			return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(false);
			throw new RedisCommandTimeoutException("Command timed out after " + timeout);
		}
		catch (InterruptedException ex) {
			future.cancel(false);
			Thread.currentThread().interrupt();
			throw new RedisCommandInterruptedException(ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = AsyncValueTemplate.unwrap(ex.getCause());
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new RedisException(cause);
		}
	}

}
