package dev.slipcase.redis.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits in a test for something another thread or the server brings about: polls a condition
 * every 10 ms until it holds, and fails with an {@link AssertionError} once the timeout has passed.
 * The condition runs on the calling thread; an exception it throws ends the wait and propagates.
 */
public final class Wait {

	private static final long POLL_MILLIS = 10;

	private Wait() {
	}

	/**
	 * Returns once {@code condition} holds.
	 * @param timeout how long to wait at most, never {@code null}
	 * @param condition what to wait for, never {@code null}
	 * @throws AssertionError when the condition still does not hold after {@code timeout}
	 * @throws InterruptedException when the calling thread is interrupted while waiting
	 */
	public static void until(Duration timeout, BooleanSupplier condition) throws InterruptedException {
		until(timeout, "the condition", condition);
	}

	/**
	 * Returns once {@code condition} holds.
	 * @param timeout how long to wait at most, never {@code null}
	 * @param what what the condition means, for the failure message: {@code "the key to expire"}
	 * @param condition what to wait for, never {@code null}
	 * @throws AssertionError when the condition still does not hold after {@code timeout}
	 * @throws InterruptedException when the calling thread is interrupted while waiting
	 */
	public static void until(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline >= 0) {
				throw new AssertionError("Waited " + timeout + " for " + what);
			}
			Thread.sleep(POLL_MILLIS);
		}
	}

}
