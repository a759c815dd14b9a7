package dev.slipcase.redis.sharded;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BucketFill}: which hashed buckets may take a counted write, and when they stop. */
class BucketFillTests {

	private final AtomicLong now = new AtomicLong(5 * BucketFill.WINDOW_NANOS);

	/** The fill of a keyed layout on a server of 512 entries, on this test's clock. */
	private BucketFill fill(int buckets) {
		BucketFill real = BucketFill.of(buckets, 512, true);
		return new BucketFill(buckets, real.softLimit(), real.limit(), real.maxFieldsPerWrite(), this.now::get);
	}

	@Test
	void limitsLeaveASixteenthOfTheServersEntriesAsHeadroomForTwoFieldsAWrite() {
		BucketFill fill = BucketFill.of(100, 512, true);
		assertThat(fill.softLimit()).isEqualTo(384);
		assertThat(fill.limit()).isEqualTo(480);
		assertThat(fill.maxFieldsPerWrite()).isEqualTo(2);
		assertThat((512 - fill.limit()) / fill.maxFieldsPerWrite()).as("instances to pass the limit together")
			.isEqualTo(16);
		BucketFill least = BucketFill.of(100, 256, true);
		assertThat((256 - least.limit()) / least.maxFieldsPerWrite()).isEqualTo(16);
	}

	@Test
	void anUnkeyedLayoutOrASmallEntryLimitCountsNoWriteAndTheLimitIsTheServers() {
		for (BucketFill fill : new BucketFill[] { BucketFill.of(1, 512, false), BucketFill.of(1, 255, true) }) {
			fill.checked(0, 0);
			assertThat(fill.tryCount(0, 1)).isFalse();
		}
		assertThat(BucketFill.of(1, 512, false).limit()).isEqualTo(512);
		assertThat(BucketFill.of(1, 255, true).limit()).isEqualTo(255);
	}

	@Test
	void anUnknownBucketTakesTheCheckedPathUntilAScriptSaysItsCount() {
		BucketFill fill = fill(40);
		assertThat(fill.tryCount(33, 1)).isFalse();
		fill.checked(33, 10);
		assertThat(fill.tryCount(33, 1)).isTrue();
		assertThat(fill.tryCount(32, 1)).as("its neighbour in the same word").isFalse();
	}

	@Test
	void oneCountedWriteAtATimePerBucketOfAtMostTwoFields() {
		BucketFill fill = fill(20);
		fill.checked(17, 10);
		fill.checked(16, 10);
		assertThat(fill.tryCount(17, 3)).isFalse();
		assertThat(fill.tryCount(17, 2)).isTrue();
		assertThat(fill.tryCount(17, 1)).isFalse();
		assertThat(fill.tryCount(16, 1)).as("another bucket of the same word").isTrue();
		fill.counted(17, 12);
		assertThat(fill.tryCount(17, 1)).isTrue();
	}

	@Test
	void aBucketSeenAtTheSoftLimitStaysOnTheCheckedPath() {
		BucketFill fill = fill(4);
		fill.checked(1, 10);
		assertThat(fill.tryCount(1, 1)).isTrue();
		fill.counted(1, 384);
		assertThat(fill.tryCount(1, 1)).isFalse();
		fill.checked(1, 3);
		assertThat(fill.tryCount(1, 1)).as("a lower count from an older script reply").isFalse();
	}

	@Test
	void aScriptSeeingTheSoftLimitStopsCountedWritesEvenWithOneInFlight() {
		BucketFill fill = fill(4);
		fill.checked(2, 10);
		assertThat(fill.tryCount(2, 1)).isTrue();
		fill.checked(2, 400);
		fill.counted(2, 20);
		assertThat(fill.tryCount(2, 1)).isFalse();
	}

	@Test
	void aCountedWriteThatFailedLeavesTheBucketUnknown() {
		BucketFill fill = fill(4);
		fill.checked(3, 10);
		assertThat(fill.tryCount(3, 1)).isTrue();
		fill.countFailed(3);
		assertThat(fill.tryCount(3, 1)).isFalse();
		fill.checked(3, 11);
		assertThat(fill.tryCount(3, 1)).isTrue();
	}

	@Test
	void aCountSeenMoreThanAWindowAgoIsUnknownUntilSeenAgain() {
		BucketFill fill = fill(4);
		fill.checked(0, 10);
		this.now.addAndGet(BucketFill.WINDOW_NANOS);
		assertThat(fill.tryCount(0, 1)).as("seen in the window before").isTrue();
		fill.counted(0, 11);
		this.now.addAndGet(2 * BucketFill.WINDOW_NANOS);
		assertThat(fill.tryCount(0, 1)).as("seen two windows before").isFalse();
		fill.checked(0, 12);
		assertThat(fill.tryCount(0, 1)).isTrue();
	}

}
