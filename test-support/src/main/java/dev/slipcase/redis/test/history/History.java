package dev.slipcase.redis.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.slipcase.redis.test.history.Operation.Kind;
import org.jspecify.annotations.Nullable;

/**
 * Records operations as callers run them: {@link #run} notes the invocation, runs the call,
 * notes the completion and how it ended. Thread-safe; {@link #operations()} is the history so far,
 * in order of invocation.
 */
public final class History {

	private final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();

	private final AtomicInteger indexes = new AtomicInteger();

	private final Function<Throwable, Outcome> classifier;

	/**
	 * @param classifier how a call's exception ends it: {@link Outcome#FAIL} only when the store
	 * certainly did not apply it, else {@link Outcome#INFO}
	 */
	public History(Function<Throwable, Outcome> classifier) {
		this.classifier = classifier;
	}

	/**
	 * Runs {@code call} as operation {@code kind} of {@code process} on {@code key}, recording it.
	 * @param call returns the operation's result as text (see {@link Operation#result()}), may
	 * return {@code null}
	 * @return the call's result, or {@code null} when it threw (recorded, not rethrown)
	 */
	public @Nullable String run(int process, Kind kind, String key, @Nullable String argument,
			Supplier<@Nullable String> call) {
		int index = this.indexes.getAndIncrement();
		long invoked = System.nanoTime();
		try {
			String result = call.get();
			this.operations.add(new Operation(index, process, kind, key, argument, invoked, System.nanoTime(),
					Outcome.OK, result, null));
			return result;
		}
		catch (RuntimeException ex) {
			this.operations.add(new Operation(index, process, kind, key, argument, invoked, System.nanoTime(),
					this.classifier.apply(ex), null, ex.getClass().getSimpleName() + ": " + ex.getMessage()));
			return null;
		}
	}

	/** Every operation recorded so far, in order of invocation. */
	public List<Operation> operations() {
		List<Operation> sorted = new ArrayList<>(this.operations);
		sorted.sort(Comparator.comparingInt(Operation::index));
		return sorted;
	}

}
