package dev.slipcase.redis.test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Wait}.
 */
class WaitTests {

	@Test
	void untilReturnsOnceTheConditionHolds() throws InterruptedException {
		AtomicInteger polls = new AtomicInteger();
		Wait.until(Duration.ofSeconds(5), () -> polls.incrementAndGet() == 3);
		assertThat(polls).hasValue(3);
	}

	@Test
	void untilFailsNamingWhatItWaitedForAndHowLong() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> Wait.until(Duration.ofMillis(50), "the key to expire", () -> false))
			.withMessage("Waited PT0.05S for the key to expire");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> Wait.until(Duration.ofMillis(50), () -> false))
			.withMessage("Waited PT0.05S for the condition");
	}

}
