package dev.slipcase.redis.sharded;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BucketFill}: which hashed buckets may take a counted write, and when they stop. */
class BucketFillTests {

	@Test
	void limitLeavesASixteenthOfTheServersEntriesAsHeadroomForTwoFieldsAWrite() {
		BucketFill fill = BucketFill.of(100, 512);
		assertThat(fill.limit()).isEqualTo(480);
		assertThat(fill.maxFieldsPerWrite()).isEqualTo(2);
		assertThat((512 - fill.limit()) / fill.maxFieldsPerWrite()).as("instances racing a bucket past the limit")
			.isEqualTo(16);
		BucketFill least = BucketFill.of(100, 256);
		assertThat((256 - least.limit()) / least.maxFieldsPerWrite()).isEqualTo(16);
	}

	@Test
	void belowTheLeastEntryLimitNoWriteIsCountedAndTheLimitIsTheServers() {
		BucketFill fill = BucketFill.of(1, 255);
		fill.checked(0, 0);
		assertThat(fill.tryCount(0, 1)).isFalse();
		assertThat(fill.limit()).isEqualTo(255);
	}

	@Test
	void anUnknownBucketTakesTheCheckedPathUntilAScriptSaysItsCount() {
		BucketFill fill = BucketFill.of(40, 512);
		assertThat(fill.tryCount(33, 1)).isFalse();
		fill.checked(33, 10);
		assertThat(fill.tryCount(33, 1)).isTrue();
		assertThat(fill.tryCount(32, 1)).as("its neighbour in the same word").isFalse();
	}

	@Test
	void oneCountedWriteAtATimePerBucketOfAtMostTwoFields() {
		BucketFill fill = BucketFill.of(20, 512);
		fill.checked(17, 10);
		fill.checked(18, 10);
		assertThat(fill.tryCount(17, 3)).isFalse();
		assertThat(fill.tryCount(17, 2)).isTrue();
		assertThat(fill.tryCount(17, 1)).isFalse();
		assertThat(fill.tryCount(18, 1)).as("another bucket of the same word").isTrue();
		fill.counted(17, 14);
		assertThat(fill.tryCount(17, 1)).isTrue();
	}

	@Test
	void aBucketSeenAtTheLimitStaysOnTheCheckedPath() {
		BucketFill fill = BucketFill.of(4, 512);
		fill.checked(1, 10);
		assertThat(fill.tryCount(1, 1)).isTrue();
		fill.counted(1, 480);
		assertThat(fill.tryCount(1, 1)).isFalse();
		fill.checked(1, 3);
		assertThat(fill.tryCount(1, 1)).as("a lower count from an older script reply").isFalse();
	}

	@Test
	void aScriptSeeingTheLimitStopsCountedWritesEvenWithOneInFlight() {
		BucketFill fill = BucketFill.of(4, 512);
		fill.checked(2, 10);
		assertThat(fill.tryCount(2, 1)).isTrue();
		fill.checked(2, 500);
		fill.counted(2, 20);
		assertThat(fill.tryCount(2, 1)).isFalse();
	}

	@Test
	void aCountedWriteThatFailedLeavesTheBucketUnknown() {
		BucketFill fill = BucketFill.of(4, 512);
		fill.checked(3, 10);
		assertThat(fill.tryCount(3, 1)).isTrue();
		fill.countFailed(3);
		assertThat(fill.tryCount(3, 1)).isFalse();
		fill.checked(3, 11);
		assertThat(fill.tryCount(3, 1)).isTrue();
	}

}
