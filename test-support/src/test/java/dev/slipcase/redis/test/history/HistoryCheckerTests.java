package dev.slipcase.redis.test.history;

import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.test.history.Operation.Kind;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HistoryChecker} on histories written out by hand: each anomaly it must find,
 * and the concurrent cases it must accept.
 */
class HistoryCheckerTests {

	private final List<Operation> history = new ArrayList<>();

	@Test
	void aSequentialHistoryIsValid() {
		op(Kind.SET, "k", "a", 0, 1, Outcome.OK, null);
		op(Kind.GET, "k", null, 2, 3, Outcome.OK, "a");
		op(Kind.DELETE, "k", null, 4, 5, Outcome.OK, null);
		op(Kind.GET, "k", null, 6, 7, Outcome.OK, null);
		op(Kind.SET_IF_ABSENT, "k", "b", 8, 9, Outcome.OK, "true");
		op(Kind.SET_IF_ABSENT, "k", "c", 10, 11, Outcome.OK, "false");
		op(Kind.GET, "k", null, 12, 13, Outcome.OK, "b");
		assertThat(HistoryChecker.check(this.history)).isEmpty();
	}

	@Test
	void aReadOlderThanAWriteAcknowledgedBeforeItBeganIsAnAnomaly() {
		op(Kind.SET, "k", "a", 0, 1, Outcome.OK, null);
		op(Kind.SET, "k", "b", 2, 3, Outcome.OK, null);
		op(Kind.GET, "k", null, 4, 5, Outcome.OK, "a");
		assertThat(HistoryChecker.check(this.history)).singleElement().asString().contains("is older than #1");
	}

	@Test
	void aReadConcurrentWithTheNewerWriteMayReturnTheOlderValue() {
		op(Kind.SET, "k", "a", 0, 1, Outcome.OK, null);
		op(Kind.SET, "k", "b", 2, 6, Outcome.OK, null);
		op(Kind.GET, "k", null, 4, 5, Outcome.OK, "a");
		op(Kind.GET, "k", null, 4, 5, Outcome.OK, "b");
		assertThat(HistoryChecker.check(this.history)).isEmpty();
	}

	@Test
	void aDeletedKeyThatComesBackIsAnAnomaly() {
		op(Kind.SET, "k", "a", 0, 1, Outcome.OK, null);
		op(Kind.DELETE, "k", null, 2, 3, Outcome.OK, null);
		op(Kind.GET, "k", null, 4, 5, Outcome.OK, "a");
		assertThat(HistoryChecker.check(this.history)).hasSize(1);
	}

	@Test
	void theValueOfAFailedWriteIsAnAnomaly() {
		op(Kind.SET, "k", "x", 0, 1, Outcome.FAIL, null);
		op(Kind.GET, "k", null, 2, 3, Outcome.OK, "x");
		assertThat(HistoryChecker.check(this.history)).singleElement().asString()
			.contains("no acknowledged or unknown write");
	}

	@Test
	void anUnknownWriteMayHaveBeenAppliedOrNotButNotAfterItsCallEnded() {
		op(Kind.SET, "k", "x", 0, 1, Outcome.INFO, null);
		op(Kind.GET, "k", null, 2, 3, Outcome.OK, "x");
		op(Kind.SET, "k", "y", 4, 5, Outcome.OK, null);
		op(Kind.GET, "k", null, 6, 7, Outcome.OK, "x");
		assertThat(HistoryChecker.check(this.history)).singleElement().asString().startsWith("key k: #3 ");
	}

	@Test
	void anIncrementAppliedTwiceIsAnAnomaly() {
		op(Kind.INCREMENT, "c", "1", 0, 1, Outcome.OK, "1");
		op(Kind.INCREMENT, "c", "1", 2, 3, Outcome.INFO, null);
		op(Kind.GET, "c", null, 4, 5, Outcome.OK, "2");
		op(Kind.GET, "c", null, 4, 5, Outcome.OK, "1");
		assertThat(HistoryChecker.check(this.history)).isEmpty();
		op(Kind.GET, "c", null, 6, 7, Outcome.OK, "3");
		assertThat(HistoryChecker.check(this.history)).singleElement().asString().contains("applied twice");
	}

	@Test
	void aLostAcknowledgedIncrementIsAnAnomaly() {
		op(Kind.INCREMENT, "c", "1", 0, 1, Outcome.OK, "1");
		op(Kind.INCREMENT, "c", "1", 2, 3, Outcome.OK, "1");
		op(Kind.GET, "c", null, 4, 5, Outcome.OK, "1");
		assertThat(HistoryChecker.check(this.history)).hasSize(2).allMatch((anomaly) -> anomaly.contains("lost"));
	}

	private void op(Kind kind, String key, @Nullable String argument, long invoked, long completed, Outcome outcome,
			@Nullable String result) {
		this.history.add(new Operation(this.history.size(), 0, kind, key, argument, invoked, completed, outcome, result,
				null));
	}

}
