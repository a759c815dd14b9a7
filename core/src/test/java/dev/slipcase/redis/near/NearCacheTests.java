package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests for {@link NearCache}'s mechanism, with no Redis: each fetch is a supplier the test
 * controls, and latches and futures force every interleaving (nothing races a clock). They prove
 * that reads bypass the tier until tracking is trusted; that a read stores what it fetched only
 * when nothing happened to its key meanwhile (an invalidation, another fetch of it completing, a
 * clear, tracking lost), so no stale value is ever left held; that concurrent readers of a key
 * share one fetch, and one reader giving up does not cancel it for the others; and that the tier
 * holds no more than its bound.
 */
class NearCacheTests {

	private static final long DEADLINE_SECONDS = 10;

	private final NearCache cache = new NearCache("t", 100, null);

	@Test
	void aNonPositiveMaximumSizeIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new NearCache("t", 0, null))
			.withMessageContaining("maximumSize");
	}

	@Test
	void readsGoToRedisAndNothingIsStoredUntilTrackingIsTrusted() {
		Counting fetch = new Counting("v");
		for (int i = 0; i < 3; i++) {
			assertThat(this.cache.get("k", fetch)).isEqualTo("v");
		}
		assertThat(this.cache.isTrusted()).isFalse();
		assertThat(fetch.calls()).isEqualTo(3);
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.bypassed()).isEqualTo(3);
		assertThat(this.cache.hits()).isZero();
		assertThat(this.cache.misses()).isZero();
	}

	@Test
	void onceTrustedAMissIsFetchedAndStoredAndTheNextReadIsAHit() {
		this.cache.trackingTrusted();
		Counting fetch = new Counting("v");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v");
		assertThat(this.cache.peek("k")).isEqualTo("v");
		assertThat(this.cache.size()).isEqualTo(1);
		assertThat(this.cache.get("k", fetch)).isEqualTo("v");
		assertThat(fetch.calls()).isEqualTo(1);
		assertThat(this.cache.hits()).isEqualTo(1);
		assertThat(this.cache.misses()).isEqualTo(1);
		assertThat(this.cache.bypassed()).isZero();
	}

	@Test
	void aWriteAcknowledgedWithNothingInBetweenIsHeldAndForgetsWhatWasHeldBefore() {
		this.cache.trackingTrusted();
		this.cache.get("k", new Counting("old"));
		NearCache.Write write = this.cache.writing("k");
		assertThat(this.cache.peek("k")).as("forgotten while the write is under way").isNull();
		this.cache.written(write, "new");
		assertThat(this.cache.peek("k")).isEqualTo("new");
	}

	@Test
	void aWriteIsNotHeldWhenAnInvalidationAnotherWriteAFetchOrALossOfTrackingCameInBetween() {
		this.cache.trackingTrusted();
		NearCache.Write invalidated = this.cache.writing("k");
		this.cache.invalidate("k"); // another client's write, maybe later than this one
		this.cache.written(invalidated, "mine");
		assertThat(this.cache.peek("k")).isNull();

		NearCache.Write overtaken = this.cache.writing("k");
		NearCache.Write later = this.cache.writing("k");
		this.cache.written(later, "later");
		this.cache.written(overtaken, "earlier");
		assertThat(this.cache.peek("k")).as("the earlier write drops what the later one held").isNull();

		NearCache.Write fetchedMeanwhile = this.cache.writing("k");
		this.cache.get("k", new Counting("read meanwhile"));
		this.cache.written(fetchedMeanwhile, "mine");
		assertThat(this.cache.peek("k")).isNull();

		NearCache.Write lost = this.cache.writing("k");
		this.cache.trackingLost();
		this.cache.trackingTrusted();
		this.cache.written(lost, "mine");
		assertThat(this.cache.peek("k")).isNull();
	}

	@Test
	void anAbsentValueIsNotStoredAndIsFetchedAgain() {
		this.cache.trackingTrusted();
		Counting fetch = new Counting(null);
		assertThat(this.cache.get("k", fetch)).isNull();
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.get("k", fetch)).isNull();
		assertThat(fetch.calls()).isEqualTo(2);
		assertThat(this.cache.misses()).isEqualTo(2);
		assertThat(this.cache.hits()).isZero();
	}

	@Test
	void aFailingFetchIsRethrownAndStoresNothing() {
		this.cache.trackingTrusted();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.get("k", () -> {
			throw new IllegalStateException("boom");
		})).withMessage("boom");
		assertThat(this.cache.size()).isZero();
		Counting fetch = new Counting("v");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v");
		assertThat(fetch.calls()).as("the failed fetch no longer stands for the key").isEqualTo(1);
	}

	@Test
	void aValueInvalidatedWhileItIsFetchedIsReturnedButNotStored() {
		this.cache.trackingTrusted();
		assertThat(this.cache.get("k", () -> {
			this.cache.invalidate("k");
			return "v";
		})).isEqualTo("v");
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.invalidations()).isEqualTo(1);
		Counting fetch = new Counting("v2");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(fetch.calls()).isEqualTo(1);
	}

	@Test
	void aValueForgottenWhileItIsFetchedIsReturnedButNotStoredAndNotCountedAsAnInvalidation() {
		this.cache.trackingTrusted();
		assertThat(this.cache.get("k", () -> {
			this.cache.forget("k");
			return "v";
		})).isEqualTo("v");
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.invalidations()).isZero();
		Counting fetch = new Counting("v2");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(fetch.calls()).isEqualTo(1);
	}

	@Test
	void anInvalidatedKeyIsFetchedAnew() {
		this.cache.trackingTrusted();
		this.cache.get("k", () -> "old");
		this.cache.invalidate("k");
		assertThat(this.cache.peek("k")).isNull();
		Counting fetch = new Counting("new");
		assertThat(this.cache.get("k", fetch)).isEqualTo("new");
		assertThat(fetch.calls()).isEqualTo(1);
		assertThat(this.cache.peek("k")).isEqualTo("new");
		assertThat(this.cache.invalidations()).isEqualTo(1);
	}

	@Test
	void invalidateAllForgetsEachKeyAndCountsEach() {
		this.cache.trackingTrusted();
		this.cache.get("a", () -> "1");
		this.cache.get("b", () -> "2");
		this.cache.get("c", () -> "3");
		this.cache.invalidateAll(List.of("a", "b"));
		assertThat(this.cache.peek("a")).isNull();
		assertThat(this.cache.peek("b")).isNull();
		assertThat(this.cache.peek("c")).isEqualTo("3");
		assertThat(this.cache.invalidations()).isEqualTo(2);
	}

	@Test
	void concurrentReadersOfAKeyShareOneFetch() throws Exception {
		this.cache.trackingTrusted();
		Blocking fetch = new Blocking(null);
		Reader first = new Reader(this.cache, "k", fetch);
		fetch.awaitStarted();
		Reader second = new Reader(this.cache, "k", fetch);
		second.awaitBlocked();
		fetch.release();
		Object firstValue = first.join();
		Object secondValue = second.join();
		assertThat(fetch.calls()).isEqualTo(1);
		assertThat(secondValue).isSameAs(firstValue);
		assertThat(this.cache.peek("k")).isSameAs(firstValue);
	}

	@Test
	void aFetchDetachedByAnInvalidationDropsTheNewerValueStoredMeanwhileInsteadOfStoringItsOwn() throws Exception {
		this.cache.trackingTrusted();
		Blocking old = new Blocking("old");
		Reader first = new Reader(this.cache, "k", old);
		old.awaitStarted();
		this.cache.invalidate("k");
		Counting fresh = new Counting("new");
		assertThat(this.cache.get("k", fresh)).isEqualTo("new");
		assertThat(fresh.calls()).as("the invalidation detached the first fetch").isEqualTo(1);
		assertThat(this.cache.peek("k")).isEqualTo("new");
		old.release();
		assertThat(first.join()).isEqualTo("old");
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.size()).isZero();
	}

	@Test
	void aFetchDetachedByAnInvalidationAndCompletingFirstLeavesNothingStale() throws Exception {
		this.cache.trackingTrusted();
		Blocking old = new Blocking("old");
		Reader first = new Reader(this.cache, "k", old);
		old.awaitStarted();
		this.cache.invalidate("k");
		Blocking fresh = new Blocking("new");
		Reader second = new Reader(this.cache, "k", fresh);
		fresh.awaitStarted();
		old.release();
		assertThat(first.join()).isEqualTo("old");
		assertThat(this.cache.peek("k")).isNull();
		fresh.release();
		assertThat(second.join()).isEqualTo("new");
		assertThat(this.cache.peek("k")).isNotEqualTo("old");
		assertThat(old.calls() + fresh.calls()).isEqualTo(2);
	}

	@Test
	void anAsyncFetchDetachedByAnInvalidationDropsTheNewerValueStoredMeanwhile() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> old = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> old);
		this.cache.invalidate("k");
		CompletableFuture<@Nullable Object> fresh = new CompletableFuture<>();
		AtomicInteger freshCalls = new AtomicInteger();
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", () -> {
			freshCalls.incrementAndGet();
			return fresh;
		});
		assertThat(freshCalls).as("the invalidation detached the first fetch").hasValue(1);
		fresh.complete("new");
		assertThat(second.join()).isEqualTo("new");
		assertThat(this.cache.peek("k")).isEqualTo("new");
		old.complete("old");
		assertThat(first.join()).isEqualTo("old");
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.size()).isZero();
	}

	@Test
	void aFetchDuringWhichAnotherFetchOfItsKeyCompletedStoresNothing() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> old = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> old);
		this.cache.invalidate("k");
		CompletableFuture<@Nullable Object> fresh = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", () -> fresh);
		old.complete("old");
		assertThat(first.join()).isEqualTo("old");
		// the first fetch may have read Redis after the second did, and its reader was served that
		fresh.complete("new");
		assertThat(second.join()).isEqualTo("new");
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.size()).isZero();
	}

	@Test
	void aReaderServedAnAcknowledgedWriteIsNeverHandedAFetchBegunBeforeIt() {
		this.cache.trackingTrusted();
		NearCache.Write write = this.cache.writing("k");
		CompletableFuture<@Nullable Object> older = new CompletableFuture<>();
		// a read of Redis before the write was applied, whose reply comes late
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> older);
		this.cache.written(write, "new");
		assertThat(this.cache.getAsync("k", () -> {
			throw new AssertionError("held, not fetched");
		}).join()).isEqualTo("new");
		// the late fetch drops what is held as it completes; a reader who comes just then (or after
		// an eviction) misses, and must not be handed the late fetch's older value
		AtomicReference<@Nullable Object> readAgain = new AtomicReference<>();
		first.thenRun(() -> readAgain
			.set(this.cache.getAsync("k", () -> CompletableFuture.completedFuture("new")).join()));
		older.complete("old");
		assertThat(first.join()).isEqualTo("old");
		assertThat(readAgain.get()).as("read again after being served the write").isEqualTo("new");
	}

	@Test
	void aReadAfterAClearDoesNotJoinAFetchBegunBeforeIt() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> old = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> old);
		this.cache.clear();
		CompletableFuture<@Nullable Object> fresh = new CompletableFuture<>();
		AtomicInteger freshCalls = new AtomicInteger();
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", () -> {
			freshCalls.incrementAndGet();
			return fresh;
		});
		assertThat(freshCalls).hasValue(1);
		fresh.complete("new");
		assertThat(second.join()).isEqualTo("new");
		assertThat(this.cache.peek("k")).isEqualTo("new");
		old.complete("old");
		assertThat(first.join()).isEqualTo("old");
		assertThat(this.cache.peek("k")).isNull();
	}

	@Test
	void trackingLostForgetsEverythingAndBypassesUntilTrustedAgain() {
		this.cache.trackingTrusted();
		this.cache.get("k", () -> "v");
		this.cache.trackingLost();
		assertThat(this.cache.isTrusted()).isFalse();
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("k")).isNull();
		assertThat(this.cache.flushes()).isEqualTo(1);
		Counting fetch = new Counting("v2");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(fetch.calls()).isEqualTo(2);
		assertThat(this.cache.bypassed()).isEqualTo(2);
		assertThat(this.cache.size()).isZero();
		this.cache.trackingTrusted();
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(fetch.calls()).isEqualTo(3);
		assertThat(this.cache.peek("k")).isEqualTo("v2");
	}

	@Test
	void aFetchBegunBeforeTrackingWasLostStoresNothingWhenItCompletesAfterTrackingIsTrustedAgain() throws Exception {
		this.cache.trackingTrusted();
		Blocking fetch = new Blocking("old");
		Reader reader = new Reader(this.cache, "k", fetch);
		fetch.awaitStarted();
		this.cache.trackingLost();
		this.cache.trackingTrusted();
		fetch.release();
		assertThat(reader.join()).isEqualTo("old");
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("k")).isNull();
		Counting again = new Counting("new");
		assertThat(this.cache.get("k", again)).isEqualTo("new");
		assertThat(again.calls()).isEqualTo(1);
	}

	@Test
	void aFetchBegunWhileBypassedStoresNothingWhenItCompletesAfterTrackingIsTrusted() throws Exception {
		Blocking fetch = new Blocking("old");
		Reader reader = new Reader(this.cache, "k", fetch);
		fetch.awaitStarted();
		this.cache.trackingTrusted();
		fetch.release();
		assertThat(reader.join()).isEqualTo("old");
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("k")).isNull();
	}

	@Test
	void clearForgetsWhatIsHeld() {
		this.cache.trackingTrusted();
		this.cache.get("a", () -> "1");
		this.cache.get("b", () -> "2");
		this.cache.clear();
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("a")).isNull();
		assertThat(this.cache.peek("b")).isNull();
		assertThat(this.cache.flushes()).isEqualTo(1);
		assertThat(this.cache.isTrusted()).isTrue();
	}

	@Test
	void aValueFetchedWhileTheTierIsClearedIsReturnedButNotStored() {
		this.cache.trackingTrusted();
		assertThat(this.cache.get("k", () -> {
			this.cache.clear();
			return "v";
		})).isEqualTo("v");
		assertThat(this.cache.size()).isZero();
		assertThat(this.cache.peek("k")).isNull();
		Counting fetch = new Counting("v2");
		assertThat(this.cache.get("k", fetch)).isEqualTo("v2");
		assertThat(fetch.calls()).isEqualTo(1);
	}

	@Test
	void getAsyncServesAHeldValueAsACompletedFutureWithoutFetching() {
		this.cache.trackingTrusted();
		this.cache.get("k", () -> "v");
		CompletableFuture<@Nullable Object> value = this.cache.getAsync("k", () -> fail("must not fetch a held value"));
		assertThat(value).isCompletedWithValue("v");
		assertThat(this.cache.hits()).isEqualTo(1);
	}

	@Test
	void getAsyncStoresWhatItsFetchCompletesWithLater() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> fetched = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> value = this.cache.getAsync("k", () -> fetched);
		assertThat(value).isNotDone();
		assertThat(this.cache.peek("k")).isNull();
		fetched.complete("v");
		assertThat(value).isCompletedWithValue("v");
		assertThat(this.cache.peek("k")).isEqualTo("v");
		assertThat(this.cache.misses()).isEqualTo(1);
	}

	@Test
	void aCompletedAsyncFetchNoLongerStandsForItsKey() {
		this.cache.trackingTrusted();
		AtomicInteger calls = new AtomicInteger();
		Supplier<CompletableFuture<@Nullable Object>> fetch = () -> {
			calls.incrementAndGet();
			return CompletableFuture.completedFuture(null);
		};
		assertThat(this.cache.getAsync("k", fetch)).isCompletedWithValue(null);
		assertThat(this.cache.getAsync("k", fetch)).isCompletedWithValue(null);
		assertThat(calls).hasValue(2);
		assertThat(this.cache.size()).isZero();
	}

	@Test
	void concurrentAsyncReadersOfAKeyShareOneFetch() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> fetched = new CompletableFuture<>();
		AtomicInteger calls = new AtomicInteger();
		Supplier<CompletableFuture<@Nullable Object>> fetch = () -> {
			calls.incrementAndGet();
			return fetched;
		};
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", fetch);
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", fetch);
		assertThat(calls).hasValue(1);
		fetched.complete("v");
		assertThat(first).isCompletedWithValue("v");
		assertThat(second).isCompletedWithValue("v");
		assertThat(this.cache.peek("k")).isEqualTo("v");
	}

	@Test
	void cancellingOneAsyncReaderDoesNotCancelTheFetchForAnother() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> fetched = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> fetched);
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", () -> fail("must share the fetch"));
		assertThat(first.cancel(true)).isTrue();
		assertThat(fetched).isNotDone();
		assertThat(second).isNotDone();
		fetched.complete("v");
		assertThat(second).isCompletedWithValue("v");
		assertThat(this.cache.peek("k")).isEqualTo("v");
	}

	@Test
	void cancellingTheReaderThatJoinedAFetchDoesNotCancelItForTheReaderThatStartedIt() {
		this.cache.trackingTrusted();
		CompletableFuture<@Nullable Object> fetched = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> first = this.cache.getAsync("k", () -> fetched);
		CompletableFuture<@Nullable Object> second = this.cache.getAsync("k", () -> fail("must share the fetch"));
		assertThat(second.cancel(true)).isTrue();
		assertThat(fetched).isNotDone();
		assertThat(first).isNotDone();
		fetched.complete("v");
		assertThat(first).isCompletedWithValue("v");
		assertThat(this.cache.peek("k")).isEqualTo("v");
	}

	@Test
	void itHoldsNoMoreThanItsMaximumSize() {
		NearCache bounded = new NearCache("t", 100, null);
		bounded.trackingTrusted();
		for (int i = 0; i < 1_000; i++) {
			String key = "k" + i;
			assertThat(bounded.get(key, () -> key)).isEqualTo(key);
			assertThat(bounded.size()).as("size after %d keys", i + 1).isLessThanOrEqualTo(100);
		}
	}

	@Test
	void anEntryOlderThanTheMaximumAgeIsFetchedAnew() throws InterruptedException {
		NearCache aging = new NearCache("t", 10, Duration.ofMillis(50));
		aging.trackingTrusted();
		Counting fetch = new Counting("v");
		aging.get("k", fetch);
		Thread.sleep(200); // expiry only errs toward a miss, so waiting longer cannot make this flaky
		assertThat(aging.get("k", fetch)).isEqualTo("v");
		assertThat(fetch.calls()).isEqualTo(2);
		assertThat(aging.hits()).isZero();
		assertThat(aging.misses()).isEqualTo(2);
	}

	/** A fetch that returns at once, counting its calls. */
	private static final class Counting implements Supplier<@Nullable Object> {

		private final @Nullable Object value;

		private final AtomicInteger calls = new AtomicInteger();

		Counting(@Nullable Object value) {
			this.value = value;
		}

		@Override
		public @Nullable Object get() {
			this.calls.incrementAndGet();
			return this.value;
		}

		int calls() {
			return this.calls.get();
		}

	}

	/**
	 * A fetch that blocks until released, counting its calls; it returns {@code value}, or a new
	 * object per call when {@code value} is {@code null}.
	 */
	private static final class Blocking implements Supplier<@Nullable Object> {

		private final @Nullable Object value;

		private final AtomicInteger calls = new AtomicInteger();

		private final CountDownLatch started = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		Blocking(@Nullable Object value) {
			this.value = value;
		}

		@Override
		public Object get() {
			this.calls.incrementAndGet();
			this.started.countDown();
			try {
				if (!this.release.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
					throw new IllegalStateException("fetch never released");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			return (this.value != null) ? this.value : new Object();
		}

		void awaitStarted() throws InterruptedException {
			assertThat(this.started.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).as("fetch started").isTrue();
		}

		void release() {
			this.release.countDown();
		}

		int calls() {
			return this.calls.get();
		}

	}

	/** A {@link NearCache#get} on a thread of its own. */
	private static final class Reader {

		private final FutureTask<@Nullable Object> task;

		private final Thread thread;

		Reader(NearCache cache, String key, Supplier<@Nullable Object> fetch) {
			this.task = new FutureTask<>(() -> cache.get(key, fetch));
			this.thread = new Thread(this.task, "near-cache-reader");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		/** Waits until the reader is parked: joined to a fetch under way, or in one of its own. */
		void awaitBlocked() throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
			while (true) {
				Thread.State state = this.thread.getState();
				if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
					return;
				}
				assertThat(state).as("reader state").isNotEqualTo(Thread.State.TERMINATED);
				assertThat(System.nanoTime() - deadline).as("reader blocked within %ds", DEADLINE_SECONDS).isNegative();
				Thread.onSpinWait();
				Thread.yield();
			}
		}

		@Nullable Object join() throws Exception {
			return this.task.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
		}

	}

}
