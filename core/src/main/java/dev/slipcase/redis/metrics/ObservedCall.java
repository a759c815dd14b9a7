package dev.slipcase.redis.metrics;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One started Slipcase observation and its context, for the call that started it: the call opens
 * a {@link #openScope() scope} while it dispatches its commands, records bytes, and
 * {@link #stop(Throwable) stops} it exactly once when it completes. {@link #NONE} does nothing
 * and costs nothing, for a registry that records nothing.
 */
public final class ObservedCall {

	/** A call that is not observed. */
	public static final ObservedCall NONE = new ObservedCall(Observation.NOOP, null);

	private final Observation observation;

	private final @Nullable SlipcaseObservationContext context;

	private final AtomicBoolean stopped = new AtomicBoolean();

	ObservedCall(Observation observation, @Nullable SlipcaseObservationContext context) {
		this.observation = observation;
		this.context = context;
	}

	/** Makes the observation current on this thread until the scope is closed. */
	public Observation.Scope openScope() {
		return this.observation.openScope();
	}

	/** Adds to the bytes the call stored or read. */
	public void storedBytes(long bytes) {
		if (this.context != null) {
			this.context.addStoredBytes(bytes);
		}
	}

	/** Adds to the bytes of values before compression. */
	public void rawBytes(long bytes) {
		if (this.context != null) {
			this.context.addRawBytes(bytes);
		}
	}

	/**
	 * Runs {@code work} with this observation current on the calling thread, then stops it: as a
	 * failure when {@code work} throws, which is rethrown.
	 */
	@SuppressWarnings("try")
	public <R> R run(Function<ObservedCall, R> work) {
		Throwable failure = null;
		try (Observation.Scope scope = openScope()) {
			return work.apply(this);
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		finally {
			stop(failure);
		}
	}

	/**
	 * Stops the observation: a success when {@code failure} is {@code null}. Only the first call
	 * counts, so that a command completed and then cancelled (or the reverse) is stopped once.
	 */
	public void stop(@Nullable Throwable failure) {
		stop(failure, -1);
	}

	/**
	 * Stops the observation as {@link #stop(Throwable)} does, adding {@code bytesRead} to the bytes
	 * the call stored or read when this call is the one that stops it; a negative
	 * {@code bytesRead} adds nothing.
	 */
	public void stop(@Nullable Throwable failure, long bytesRead) {
		if (this.context == null || !this.stopped.compareAndSet(false, true)) {
			return;
		}
		if (bytesRead >= 0) {
			this.context.addStoredBytes(bytesRead);
		}
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof CancellationException) {
			this.context.outcome(SlipcaseObservationContext.Outcome.CANCELLED);
		}
		else if (cause != null) {
			this.context.outcome(SlipcaseObservationContext.Outcome.ERROR);
			this.observation.error(cause);
		}
		this.observation.stop();
	}

}
