package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.OrderedDispatcher;
import dev.slipcase.redis.lettuce.RedisFailures;
import dev.slipcase.redis.lettuce.SlipcaseCommand;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * The writes made on a tracking connection ({@link KeyInvalidations#write}), each sent at most
 * once, and the retirement that closes the connection once the last of them completed. The caller
 * owns the key and value arrays; nothing here holds a buffer. Thread-safe.
 */
final class TrackingWrites {

	private final StatefulRedisConnection<String, String> connection;

	/** Sends the writes' binary commands on the string connection: a command encodes its own arguments. */
	private final OrderedDispatcher<byte[], byte[]> dispatcher;

	/** Closes the tracking once the last write a retirement waits for completed. */
	private final Runnable close;

	/** The writes under way. */
	private final AtomicInteger writing = new AtomicInteger();

	/** {@link #closeWhenWritten()} was called: the last write under way closes the connections. */
	private volatile boolean retiring;

	TrackingWrites(StatefulRedisConnection<String, String> connection, Runnable close) {
		this.connection = connection;
		this.dispatcher = binary(connection);
		this.close = close;
	}

	/** See {@link KeyInvalidations#write}. */
	CompletableFuture<Boolean> write(byte[] key, byte[] value, @Nullable Duration ttl) {
		// counted before the checks, so that a retirement either sees it or is seen by it
		this.writing.incrementAndGet();
		if (this.retiring || !this.connection.isOpen()) {
			written();
			return CompletableFuture.completedFuture(false); // reconnecting, closing or closed: never sent
		}
		SlipcaseCommand<byte[], byte[], String> command = BinaryCommands.set(key, value, expiryMillis(ttl));
		// on the command itself: the outcome below does not run once its caller cancelled it
		command.whenComplete((reply, failure) -> written());
		this.dispatcher.send(command);
		CompletableFuture<Boolean> outcome = command.handle((reply, failure) -> {
			if (failure == null) {
				if (!"OK".equals(reply)) {
					throw new IllegalStateException("SET answered " + reply);
				}
				return true;
			}
			Throwable cause = RedisFailures.unwrap(failure);
			if (cause instanceof RedisCommandExecutionException || command.abandonIfUnsent()) {
				return false; // refused by Redis, or never written (and now never will be): not applied
			}
			throw new CompletionException(cause);
		});
		outcome.whenComplete((applied, failure) -> {
			if (failure instanceof CancellationException) {
				command.cancel(false); // given up on: not written, if it was not yet
			}
		});
		return outcome;
	}

	/** See {@link KeyInvalidations#closeWhenWritten()}. */
	void closeWhenWritten() {
		this.retiring = true;
		if (this.writing.get() == 0) {
			this.close.run();
		}
	}

	/** A write completed: closes the tracking when that was the last one a retirement waited for. */
	private void written() {
		if (this.writing.decrementAndGet() == 0 && this.retiring) {
			this.close.run();
		}
	}

	/** {@code PX} for {@code ttl}: at least 1, at most {@code Long.MAX_VALUE}; {@code 0}: no expiry. */
	private static long expiryMillis(@Nullable Duration ttl) {
		if (ttl == null || ttl.isNegative() || ttl.isZero()) {
			return 0;
		}
		try {
			return Math.max(1, ttl.toMillis());
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE; // Redis refuses it, as it would the writer's
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static OrderedDispatcher<byte[], byte[]> binary(StatefulRedisConnection<String, String> connection) {
		return OrderedDispatcher.of((StatefulRedisConnection) connection);
	}

}
