package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Replies as Reactor {@link Mono}s, with {@link Await}'s contract for a caller that does not
 * block: nothing is sent until the {@code Mono} is subscribed to; it emits the reply (nothing for
 * a {@code null} one) or fails with what {@link Await#result} throws (Spring's
 * {@code DataAccessException}s, a {@code SerializationException} as it is); when no reply comes
 * within the timeout the command is cancelled and the {@code Mono} fails with a
 * {@code QueryTimeoutException}. Cancelling the subscription cancels the command: one not yet
 * written is never written, and a command releases its own buffers however it ends; a reply that
 * arrived but was not yet asked for goes to the subscriber's discard hooks
 * ({@code doOnDiscard}), which release what it holds. Signals
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
		return Mono.<T>deferContextual((context) -> {
			CompletableFuture<T> reply = send.get();
			// suppressCancel false: a cancelled subscription cancels the command. Reactor looks at the
			// future only once the value is asked for: a reply that came before a cancellation and
			// was never asked for is discarded here, through the subscriber's discard hooks (a
			// lease's closes it); twice is harmless, as a lease closes once
			return Mono.fromFuture(reply, false)
				.doOnCancel(() -> reply.thenAccept((value) -> Operators.onDiscard(value, Context.of(context))));
		})
			.onErrorMap((failure) -> RedisFailures.translate(failure, what))
			.timeout(timeout, Mono.error(() -> RedisFailures.timedOut(what, timeout, null)));
	}

}
