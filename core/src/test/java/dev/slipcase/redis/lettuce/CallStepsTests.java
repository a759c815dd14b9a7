package dev.slipcase.redis.lettuce;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link CallSteps}: what giving a call up does to its turns, and the timeout per turn.
 * The turns' replies are plain futures here: what a turn sends is the callers' business (the
 * sharded store's calls run against real servers in the sharded tests).
 */
class CallStepsTests {

	@Test
	void givingTheCallUpCancelsTheTurnUnderWayAndSendsNoLaterTurn() {
		CallSteps steps = new CallSteps();
		CompletableFuture<String> first = new CompletableFuture<>();
		AtomicInteger laterTurns = new AtomicInteger();
		CompletableFuture<String> outcome = steps.result(steps.send(() -> first)
			.thenCompose((reply) -> steps.send(() -> {
				laterTurns.incrementAndGet();
				return CompletableFuture.completedFuture("written");
			})));

		outcome.cancel(false);

		assertThat(first).isCancelled();
		assertThat(steps.isGivenUp()).isTrue();
		assertThat(laterTurns).hasValue(0);
		assertThat(steps.send(() -> CompletableFuture.completedFuture("late")))
			.isCompletedExceptionally()
			.failsWithin(Duration.ZERO)
			.withThrowableThat()
			.isInstanceOf(CancellationException.class);
	}

	@Test
	void givingTheCallUpCancelsEveryReplyOfATurnSentTogether() {
		CallSteps steps = new CallSteps();
		List<CompletableFuture<String>> blocks = List.of(new CompletableFuture<>(), new CompletableFuture<>(),
				new CompletableFuture<>());
		List<Supplier<CompletableFuture<String>>> sendings = blocks.stream()
			.map((block) -> (Supplier<CompletableFuture<String>>) () -> block)
			.toList();
		CompletableFuture<List<String>> outcome = steps.result(CompletableFuture
			.allOf(steps.sendTogether(sendings).toArray(CompletableFuture[]::new))
			.thenApply((all) -> List.of()));

		outcome.cancel(false);

		assertThat(blocks).allSatisfy((block) -> assertThat(block).isCancelled());
	}

	@Test
	void aTurnSentTogetherAfterTheCallWasGivenUpSendsNothing() {
		CallSteps steps = new CallSteps();
		steps.giveUp();
		AtomicInteger sent = new AtomicInteger();
		Supplier<CompletableFuture<String>> sending = () -> {
			sent.incrementAndGet();
			return new CompletableFuture<>();
		};
		assertThat(steps.sendTogether(List.of(sending, sending))).allSatisfy(
				(reply) -> assertThat(reply).isCompletedExceptionally());
		assertThat(sent).hasValue(0);
	}

	@Test
	void aTurnThatReadsTheFlagAfterTheCallWasGivenUpCancelsItsOwnReplies() {
		CallSteps steps = new CallSteps();
		steps.giveUp();
		CompletableFuture<String> reply = new CompletableFuture<>();
		AtomicInteger sent = new AtomicInteger();
		assertThat(steps.send(() -> {
			sent.incrementAndGet();
			return reply;
		})).isCompletedExceptionally();
		assertThat(sent).hasValue(0);
	}

	@Test
	void theTimeoutCountsFromTheStartOfTheTurnUnderWay() {
		Duration timeout = Duration.ofSeconds(1);
		CallSteps steps = new CallSteps();
		// two turns of 600 ms each: 1.2 s in all, each within the timeout
		CompletableFuture<String> outcome = steps.result(steps.send(() -> later("first", 600))
			.thenCompose((first) -> steps.send(() -> later(first + " second", 600))));
		assertThat(CommandChannel.await(outcome, timeout, "read", "k")).isEqualTo("first second");
	}

	@Test
	void aTurnThatWaitsLongerThanTheTimeoutGivesTheCallUp() {
		CallSteps steps = new CallSteps();
		CompletableFuture<String> stuck = new CompletableFuture<>();
		CompletableFuture<String> outcome = steps.result(steps.send(() -> stuck));
		assertThatExceptionOfType(QueryTimeoutException.class)
			.isThrownBy(() -> CommandChannel.await(outcome, Duration.ofMillis(100), "read", "k"))
			.withMessageContaining("read 'k'");
		assertThat(stuck).isCancelled();
		assertThat(steps.isGivenUp()).isTrue();
	}

	private static CompletableFuture<String> later(String value, long millis) {
		return CompletableFuture.supplyAsync(() -> value,
				CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS));
	}

}
