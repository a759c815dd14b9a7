package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;

/**
 * Waits for Redis replies: an operation is reported done only once Redis acknowledged it; an error
 * reply or a missing reply becomes an exception naming what was being done.
 */
final class Replies {

	private Replies() {
	}

	static <T> T await(CompletionStage<T> reply, Duration timeout, String what) {
		try {
			return reply.toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Interrupted while waiting for Redis to " + what, ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = unwrap(ex);
			throw new RedisSystemException("Redis failed to " + what + ": " + cause.getMessage(), cause);
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException("Redis did not answer within " + timeout + " to " + what
					+ "; the operation may or may not have been applied", ex);
		}
	}

	static Throwable unwrap(Throwable ex) {
		Throwable current = ex;
		while ((current instanceof ExecutionException || current instanceof CompletionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}
