package dev.slipcase.redis.lettuce;

import org.jspecify.annotations.Nullable;

/**
 * One job a {@link SlipcaseCommand} does when it ends, whichever way it ends (a reply, an error
 * reply, a failure, a cancellation, or a caller completing it): stop its observation
 * ({@link ObservesCommand}), forget the keys it changed in a near cache. A step is added before the
 * command is dispatched and holds no lock; it may run more than once when the command ends on two
 * threads at once, so a step does its job once however often it is called.
 */
@FunctionalInterface
public interface CommandStep {

	/**
	 * Runs before the command's future completes, so that a caller woken by the future finds the
	 * job done.
	 * @param failure what the command fails with, or {@code null} when it completes with a value
	 */
	void beforeCompletion(@Nullable Throwable failure);

}
