package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

/**
 * Replies as Reactor {@link Mono}s, with {@link CommandChannel#await}'s contract for a caller that
 * does not block. The command is sent when the reply is first asked for (the first {@code request}, which
 * {@code block()} and {@code subscribe()} make at once, and an operator such as {@code concatMap}
 * only when its subscriber wants the value), so nothing is sent for a subscriber that is not ready,
 * and the timeout counts from the sending. The {@code Mono} emits the reply (nothing for a
 * {@code null} one) or fails with what {@link CommandChannel#await} throws (Spring's
 * {@code DataAccessException}s, a {@code SerializationException} as it is); when no reply comes
 * within the timeout the command is cancelled and the {@code Mono} fails with a
 * {@code QueryTimeoutException}. Cancelling cancels the command: one not yet written is never
 * written, and a command releases its own buffers however it ends. A reply that arrives after the
 * cancellation or the timeout, and was never handed on, goes to the subscriber's discard hooks
 * ({@code doOnDiscard}), which release what it holds; one that was handed on is the subscriber's.
 * Signals arrive on the connection's event loop (a timeout on Reactor's parallel scheduler), as
 * Lettuce's own reactive API delivers them. Thread-safe.
 */
public final class ReactiveReplies {

	private ReactiveReplies() {
	}

	/**
	 * A {@code Mono} of the reply of the command {@code send} sends when the reply is first asked for.
	 * @param send sends the command and returns it (or a future that follows it), never {@code null}
	 * @param timeout how long to wait for the reply once sent, never {@code null}
	 * @param action what is being done, such as {@code "get"}, for the message
	 * @param key the key it is done to, for the message; may be {@code null}
	 */
	public static <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, Duration timeout, String action,
			@Nullable Object key) {
		String what = CommandChannel.what(action, key);
		return Mono.create((sink) -> {
			Call<T> call = new Call<>(sink, what, timeout);
			sink.onCancel(call::cancel);
			sink.onRequest((n) -> call.start(send));
		});
	}

	/**
	 * One subscription's command, from its sending to the one outcome handed to the sink: the
	 * reply, a failure, the timeout, or nothing at all after a cancellation.
	 */
	private static final class Call<T> {

		private static final int NEW = 0;

		private static final int SENDING = 1;

		private static final int SENT = 2;

		private static final int DONE = 3;

		private static final int CANCELLED = 4;

		private final AtomicInteger state = new AtomicInteger(NEW);

		private final MonoSink<T> sink;

		private final String what;

		private final Duration timeout;

		private volatile @Nullable CompletableFuture<T> reply;

		private volatile @Nullable Disposable timer;

		Call(MonoSink<T> sink, String what, Duration timeout) {
			this.sink = sink;
			this.what = what;
			this.timeout = timeout;
		}

		void start(Supplier<? extends CompletableFuture<T>> send) {
			if (!this.state.compareAndSet(NEW, SENDING)) {
				return; // sent by an earlier request, or cancelled
			}
			CompletableFuture<T> sent;
			try {
				sent = send.get();
			}
			catch (RuntimeException ex) {
				if (this.state.compareAndSet(SENDING, DONE)) {
					this.sink.error(RedisFailures.translate(ex, this.what));
				}
				return;
			}
			this.reply = sent;
			if (!this.state.compareAndSet(SENDING, SENT)) {
				// cancelled while sending
				sent.cancel(false);
				sent.thenAccept(this::discard);
				return;
			}
			this.timer = Schedulers.parallel().schedule(this::timedOut, this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			sent.whenComplete(this::complete);
		}

		private void complete(@Nullable T value, @Nullable Throwable failure) {
			if (!this.state.compareAndSet(SENT, DONE)) {
				// cancelled or timed out first: nobody takes the value
				discard(value);
				return;
			}
			Disposable timer = this.timer;
			if (timer != null) {
				timer.dispose();
			}
			if (failure != null) {
				this.sink.error(RedisFailures.translate(failure, this.what));
			}
			else if (value != null) {
				this.sink.success(value);
			}
			else {
				this.sink.success();
			}
		}

		private void timedOut() {
			CompletableFuture<T> sent = this.reply;
			long left = (sent != null) ? CallSteps.nanosLeft(sent, this.timeout.toNanos()) : 0;
			if (left > 0 && this.state.get() == SENT) {
				// a call of several turns: the timeout counts from the start of the turn under way
				this.timer = Schedulers.parallel().schedule(this::timedOut, left, TimeUnit.NANOSECONDS);
				return;
			}
			if (this.state.compareAndSet(SENT, DONE)) {
				CompletableFuture<T> reply = this.reply;
				if (reply != null) {
					reply.cancel(false);
				}
				this.sink.error(RedisFailures.timedOut(this.what, this.timeout, null));
			}
		}

		void cancel() {
			int previous = this.state.getAndUpdate((current) -> (current == DONE) ? DONE : CANCELLED);
			if (previous == SENT) {
				Disposable timer = this.timer;
				if (timer != null) {
					timer.dispose();
				}
				CompletableFuture<T> reply = this.reply;
				if (reply != null) {
					// not yet written: never written; written: its reply, if any, is discarded by complete
					reply.cancel(false);
				}
			}
		}

		private void discard(@Nullable T value) {
			if (value != null) {
				Operators.onDiscard(value, Context.of(this.sink.contextView()));
			}
		}

	}

}
