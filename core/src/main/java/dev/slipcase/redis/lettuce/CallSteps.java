package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The steps of one call that sends its commands in turns, each turn decided on the replies of the
 * one before (read a field, then follow its overflow marker; try a transaction, then write what it
 * refused with a script), without blocking a thread between turns. Its {@link #result} is what
 * the caller waits for or subscribes to; cancelling that (a blocking caller's timeout or interrupt,
 * a reactive subscriber that cancels) gives the call up: the replies of the turn under way are
 * cancelled, which keeps Lettuce from writing those commands that it has not written yet (queued
 * while it reconnects, say), and no later turn is sent. So a call whose caller was told it failed
 * writes nothing afterwards, on the blocking and the reactive path alike.
 * <p>
 * The command timeout counts per turn, as it does for a lone command: {@link CommandChannel#await}
 * and {@link ReactiveReplies#mono} give a call up when its turn under way has waited that long,
 * not when the call as a whole has (a call of three turns may take up to three timeouts).
 * <p>
 * One per call; thread-safe (turns run on whichever thread completed the turn before).
 */
public final class CallSteps {

	/** The replies of the turn under way: a turn starts once the one before it completed. */
	private volatile Collection<? extends Future<?>> underWay = List.of();

	private volatile boolean givenUp;

	private volatile long turnStartedNanos = System.nanoTime();

	/**
	 * Sends {@code pipeline}, whose commands are this turn, unless the call was given up, when
	 * the pipeline is never sent and {@code replies} are cancelled.
	 * @param replies the futures of the turn's commands (or of its scripts), cancelled when the
	 * call is given up before they complete
	 */
	public void send(Pipeline<?, ?> pipeline, Collection<? extends Future<?>> replies) {
		if (isGivenUp()) {
			replies.forEach((reply) -> reply.cancel(false));
			return;
		}
		this.turnStartedNanos = System.nanoTime();
		track(replies);
		pipeline.send();
		cancelWhenGivenUp();
	}

	/** Sends {@code pipeline}, which holds one command or script with {@code reply}; see {@link #send(Pipeline, Collection)}. */
	public <T> CompletableFuture<T> send(Pipeline<?, ?> pipeline, CompletableFuture<T> reply) {
		send(pipeline, List.of(reply));
		return reply;
	}

	/**
	 * Runs {@code sending}, which sends this turn and returns its reply, unless the call was given
	 * up, when nothing is sent and the reply is a failure.
	 */
	public <T> CompletableFuture<T> send(Supplier<? extends CompletableFuture<T>> sending) {
		if (isGivenUp()) {
			return CompletableFuture.failedFuture(givenUpFailure());
		}
		this.turnStartedNanos = System.nanoTime();
		CompletableFuture<T> reply = sending.get();
		track(List.of(reply));
		cancelWhenGivenUp();
		return reply;
	}

	/**
	 * Runs each of {@code sendings}, which together send this turn and each return a reply, unless
	 * the call was given up, when nothing is sent and every reply is a failure; giving the call up
	 * later cancels every reply of the turn.
	 */
	public <T> List<CompletableFuture<T>> sendTogether(List<? extends Supplier<? extends CompletableFuture<T>>> sendings) {
		if (sendings.size() == 1) {
			return List.of(send(sendings.get(0)));
		}
		return sendTogether(null, List.of(), sendings);
	}

	/**
	 * Sends {@code pipeline} and runs each of {@code sendings} as one turn, unless the call was given
	 * up, when nothing is sent, {@code pipelineReplies} are cancelled and every reply of
	 * {@code sendings} is a failure; giving the call up later cancels every reply of the turn.
	 * @param pipeline commands of the turn, sent first; {@code null} for none
	 * @param pipelineReplies the futures of the pipeline's commands (or of its scripts)
	 */
	public <T> List<CompletableFuture<T>> sendTogether(@Nullable Pipeline<?, ?> pipeline,
			Collection<? extends Future<?>> pipelineReplies, List<? extends Supplier<? extends CompletableFuture<T>>> sendings) {
		List<CompletableFuture<T>> replies = new ArrayList<>(sendings.size());
		if (isGivenUp()) {
			pipelineReplies.forEach((reply) -> reply.cancel(false));
			sendings.forEach((sending) -> replies.add(CompletableFuture.failedFuture(givenUpFailure())));
			return replies;
		}
		this.turnStartedNanos = System.nanoTime();
		List<Future<?>> tracked = new CopyOnWriteArrayList<>(pipelineReplies);
		track(tracked);
		try {
			if (pipeline != null) {
				pipeline.send();
				cancelWhenGivenUp();
			}
			for (Supplier<? extends CompletableFuture<T>> sending : sendings) {
				if (isGivenUp()) {
					replies.add(CompletableFuture.failedFuture(givenUpFailure()));
					continue;
				}
				CompletableFuture<T> reply = sending.get();
				replies.add(reply);
				tracked.add(reply);
				cancelWhenGivenUp();
			}
		}
		catch (RuntimeException ex) {
			// the caller hears the turn failed: what it sent must not land afterwards
			tracked.forEach((reply) -> reply.cancel(false));
			throw ex;
		}
		return replies;
	}

	/** Sends {@code command} alone on {@code channel} as this turn; see {@link #send(Supplier)}. */
	public <K, V, T> CompletableFuture<T> send(CommandChannel<K, V> channel, SlipcaseCommand<K, V, T> command) {
		return send(() -> channel.submit(command));
	}

	/**
	 * The outcome of the call, completing as {@code last} (the future of its last turn) does;
	 * cancelling it gives the call up.
	 */
	public <T> CompletableFuture<T> result(CompletableFuture<T> last) {
		return result(last, null);
	}

	/**
	 * As {@link #result(CompletableFuture)}, running {@code whenDone} once the call is done, before
	 * its outcome completes: when {@code last} completes, or when the caller gives the call up,
	 * whichever comes first; once. The call's owned buffers are released there, so a caller woken by
	 * the outcome finds them released.
	 */
	public <T> CompletableFuture<T> result(CompletableFuture<T> last, @Nullable Runnable whenDone) {
		Outcome<T> result = new Outcome<>(this, whenDone);
		last.whenComplete((value, failure) -> {
			result.done();
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(value);
			}
		});
		return result;
	}

	/**
	 * How much longer a caller whose {@code timeout} passed since it started waiting for
	 * {@code reply} waits still: for the outcome of a call, what is left of the timeout of the turn
	 * under way (started later than the caller's wait, say); otherwise, and when that turn too has
	 * waited the timeout, 0 or less.
	 */
	static long nanosLeft(Future<?> reply, long timeoutNanos) {
		if (reply instanceof Outcome<?> outcome) {
			return outcome.steps.turnStartedNanos + timeoutNanos - System.nanoTime();
		}
		return 0;
	}

	/** Gives the call up: no turn is sent from now on, and the replies of the one under way are cancelled. */
	public void giveUp() {
		this.givenUp = true;
		cancelWhenGivenUp();
	}

	/** Whether the call was given up. */
	public boolean isGivenUp() {
		return this.givenUp;
	}

	private void track(Collection<? extends Future<?>> replies) {
		this.underWay = replies;
	}

	/**
	 * Cancels what is under way when the call was given up. A turn adds its replies before it
	 * reads the flag and {@link #giveUp} sets the flag before it reads the replies, so one of the
	 * two cancels them.
	 */
	private void cancelWhenGivenUp() {
		if (this.givenUp) {
			this.underWay.forEach((reply) -> reply.cancel(false));
		}
	}

	/** The outcome of a call: cancelling it gives the call up. */
	private static final class Outcome<T> extends CompletableFuture<T> {

		@SuppressWarnings("rawtypes")
		private static final AtomicReferenceFieldUpdater<Outcome, Runnable> WHEN_DONE = AtomicReferenceFieldUpdater
			.newUpdater(Outcome.class, Runnable.class, "whenDone");

		private final CallSteps steps;

		/** Run once the call is done, then cleared. */
		private volatile @Nullable Runnable whenDone;

		Outcome(CallSteps steps, @Nullable Runnable whenDone) {
			this.steps = steps;
			this.whenDone = whenDone;
		}

		/** Runs what is to run once the call is done, unless it ran. */
		void done() {
			Runnable whenDone = (this.whenDone != null) ? WHEN_DONE.getAndSet(this, null) : null;
			if (whenDone != null) {
				whenDone.run();
			}
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			this.steps.giveUp();
			done();
			return super.cancel(mayInterruptIfRunning);
		}

	}

	private static CancellationException givenUpFailure() {
		return new CancellationException("The call was given up before this step was sent");
	}

}
