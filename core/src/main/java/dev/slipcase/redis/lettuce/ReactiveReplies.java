package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Replies as Reactor {@link Mono}s, with {@link Await}'s contract for a caller that does not
 * block: nothing is sent until the {@code Mono} is subscribed to; it emits the reply (nothing for
 * a {@code null} one) or fails with what {@link Await#result} throws (Spring's
 * {@code DataAccessException}s, a {@code SerializationException} as it is); when no reply comes
 * within the timeout the command is cancelled and the {@code Mono} fails with a
 * {@code QueryTimeoutException}. Cancelling the subscription cancels the command: one not yet
 * written is never written, and a command releases its own buffers however it ends. Signals
 * arrive on the connection's event loop, as Lettuce's own reactive API delivers them. Thread-safe.
 */
public final class ReactiveReplies {

	private ReactiveReplies() {
	}

	/**
	 * A {@code Mono} of the reply of the command {@code send} sends when subscribed to.
	 * @param send sends the command and returns it (or a future that follows it), never {@code null}
	 * @param timeout how long to wait for the reply, never {@code null}
	 * @param action what is being done, such as {@code "get"}, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 */
	public static <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, Duration timeout, String action,
			@Nullable Object key) {
		String what = Await.what(action, key);
		// suppressCancel false: a cancelled subscription cancels the command
		return Mono.<T>fromFuture(send, false)
			.onErrorMap((failure) -> RedisFailures.translate(failure, what))
			.timeout(timeout, Mono.error(() -> RedisFailures.timedOut(what, timeout, null)));
	}

}
