package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * Turns the failure of a Lettuce command into what Slipcase's sync methods throw: the
 * {@link DataAccessException} that Spring Data Redis's own {@link LettuceExceptionConverter} picks
 * for it ({@link RedisSystemException} for an error reply, {@link RedisConnectionFailureException}
 * for a connection that failed, {@link QueryTimeoutException} for a timeout), with a message that
 * says what was being done and what Redis said. A {@link SerializationException} and any other
 * {@code DataAccessException} stay as they are; so does a failure of Slipcase's own making that is
 * no data access failure (an {@code IllegalStateException} for a closed template). Thread-safe.
 */
public final class RedisFailures {

	private static final LettuceExceptionConverter CONVERTER = new LettuceExceptionConverter();

	private RedisFailures() {
	}

	/**
	 * The failure itself, without the {@link CompletionException}s and {@link ExecutionException}s
	 * that futures wrap it in.
	 * @param failure the failure, never {@code null}
	 */
	public static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

	/**
	 * Whether {@code failure} is Redis' word that a {@code MULTI} block was not applied at all:
	 * {@code EXECABORT} (a queued command was refused, as a moved slot's {@code MOVED} is) or a
	 * redirection of {@code EXEC} itself. Any other failure of a block, such as the
	 * {@code ERR EXEC without MULTI} of a lone {@code EXEC}, says nothing of whether it ran.
	 * @param failure the failure of a block's {@code EXEC}, possibly wrapped by a future; never {@code null}
	 */
	public static boolean isBlockNotApplied(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (!(cause instanceof RedisCommandExecutionException) || cause.getMessage() == null) {
			return false;
		}
		String message = cause.getMessage();
		return message.startsWith("EXECABORT") || isRedirection(message);
	}

	/**
	 * Whether an error reply is a cluster node's redirection ({@code MOVED}, {@code ASK}): the
	 * command was not run there, and is run where the reply points.
	 * @param error the error reply's text
	 */
	static boolean isRedirection(String error) {
		return error.startsWith("MOVED ") || error.startsWith("ASK ");
	}

	/**
	 * Whether {@code failure} is a cluster node's {@code TRYAGAIN}: the command's keys share a slot
	 * being migrated and only some of them have moved yet, so the node did not run it.
	 * @param failure the failure of a command, possibly wrapped by a future; never {@code null}
	 */
	public static boolean isTryAgain(Throwable failure) {
		Throwable cause = unwrap(failure);
		return cause instanceof RedisCommandExecutionException && cause.getMessage() != null
				&& cause.getMessage().startsWith("TRYAGAIN");
	}

	/**
	 * What a sync method throws for {@code failure}.
	 * @param failure the failure of a command, possibly wrapped by a future; never {@code null}
	 * @param what what was being done, as in "Redis failed to {@code what}"
	 * @throws Error when {@code failure} is one
	 */
	public static RuntimeException translate(Throwable failure, String what) {
		Throwable cause = unwrap(failure);
		if (cause instanceof Error error) {
			throw error;
		}
		if (cause instanceof SerializationException || cause instanceof DataAccessException) {
			return (RuntimeException) cause;
		}
		DataAccessException category = (cause instanceof Exception exception) ? CONVERTER.convert(exception) : null;
		String message = "Redis failed to " + what + ": " + describe(cause);
		if (category instanceof QueryTimeoutException) {
			return new QueryTimeoutException(message, cause);
		}
		if (category instanceof RedisConnectionFailureException) {
			return new RedisConnectionFailureException(message, cause);
		}
		if (category instanceof RedisSystemException) {
			return new RedisSystemException(message, cause);
		}
		if (category != null) {
			return category;
		}
		if (cause instanceof IOException) {
			return new RedisConnectionFailureException(message, cause);
		}
		if (cause instanceof CancellationException) {
			// cancelled by Lettuce, as closing a connection does with the commands still pending
			return new RedisSystemException("Redis failed to " + what + ": the command was cancelled", cause);
		}
		return (cause instanceof RuntimeException own) ? own : new RedisSystemException(message, cause);
	}

	/** A timeout: the command was cancelled, and may or may not have been applied. */
	static QueryTimeoutException timedOut(String what, Duration timeout, @Nullable Throwable cause) {
		return new QueryTimeoutException("Redis did not answer within " + timeout + " to " + what
				+ "; the command was cancelled, and may or may not have been applied", cause);
	}

	/** The caller was interrupted while waiting: the command was cancelled. */
	static RedisSystemException interrupted(String what, InterruptedException cause) {
		return new RedisSystemException("Interrupted while waiting for Redis to " + what
				+ "; the command was cancelled, and may or may not have been applied", cause);
	}

	private static String describe(Throwable cause) {
		String message = cause.getMessage();
		return (message != null) ? message : cause.getClass().getSimpleName();
	}

}
