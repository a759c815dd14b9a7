package dev.slipcase.redis.sharded;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongSupplier;

import dev.slipcase.redis.sharded.KeyPlacement.Location;

/**
 * What this process saw lately of each hashed bucket's entry count, and which buckets may take a
 * counted write: one that adds fields with plain commands and learns the count from an
 * {@code HLEN} sent behind it, instead of a script that checks the count first. Sixteen bits per
 * bucket, two to an {@code int}: a state and the time window it was seen in. One per namespace in
 * a process ({@link ShardedTemplates} shares it among the namespace's templates). Thread-safe.
 * <p>
 * A bucket takes a counted write only while its count, seen within the last minute, is below the
 * {@link #softLimit()}, with at most one counted write in flight per bucket, each adding at most
 * {@link #maxFieldsPerWrite()} fields. Scripts refuse new fields at the {@link #limit()}, which
 * leaves {@code maxEntries - limit} fields of headroom for counted writes of instances whose count
 * is older than the bucket's last growth: a bucket leaves the compact encoding only if more than
 * {@code headroom / maxFieldsPerWrite} instances (16 with any {@code maxEntries} from 256 on) each
 * saw it below the soft limit within a minute and write to it once after it passed the limit. A
 * bucket seen at the soft limit stays on the checked path for this process's life; one whose
 * counted write failed, or not seen for a minute, is unknown, and unknown buckets take the checked
 * path, whose reply says the count. A layout with an unkeyed hash counts no write: whoever picks the
 * ids could aim them all at one bucket.
 */
final class BucketFill {

	/** The least {@code maxEntries} with counted writes: below it the headroom is under 16 fields. */
	static final int LEAST_MAX_ENTRIES = 256;

	/** How long a count seen stays fresh: one window and whatever is left of the one it was seen in. */
	static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final int UNKNOWN = 0;

	private static final int BELOW = 1;

	private static final int COUNTING = 2;

	private static final int NEAR_FULL = 3;

	private static final int EPOCH_MASK = 0x3fff;

	private final AtomicIntegerArray states;

	private final int softLimit;

	private final int limit;

	private final int maxFieldsPerWrite;

	private final LongSupplier nanoTime;

	BucketFill(int bucketCount, int softLimit, int limit, int maxFieldsPerWrite, LongSupplier nanoTime) {
		this.states = new AtomicIntegerArray((bucketCount + 1) / 2);
		this.softLimit = softLimit;
		this.limit = limit;
		this.maxFieldsPerWrite = maxFieldsPerWrite;
		this.nanoTime = nanoTime;
	}

	/**
	 * The fill of {@code bucketCount} hashed buckets on a server that keeps {@code maxEntries}
	 * fields in a compact hash: counted writes below three quarters of {@code maxEntries} (384 of
	 * 512), each adding at most {@code maxEntries / 256} fields, and the limit {@code maxEntries}
	 * less a sixteenth (480 of 512). With an unkeyed hash, or below {@link #LEAST_MAX_ENTRIES}, no
	 * write is counted and the limit is {@code maxEntries} itself.
	 * @param keyed whether the layout places ids with a keyed hash
	 */
	static BucketFill of(int bucketCount, int maxEntries, boolean keyed) {
		if (!keyed || maxEntries < LEAST_MAX_ENTRIES) {
			return new BucketFill(bucketCount, 0, maxEntries, 0, System::nanoTime);
		}
		return new BucketFill(bucketCount, maxEntries / 4 * 3, maxEntries - maxEntries / 16,
				maxEntries / LEAST_MAX_ENTRIES, System::nanoTime);
	}

	/** The most fields a hashed bucket holds: scripts refuse a new field beyond it. */
	int limit() {
		return this.limit;
	}

	/** The count from which a bucket takes the checked path only; 0 when no write is counted. */
	int softLimit() {
		return this.softLimit;
	}

	/** The most fields one counted write may add to one bucket; 0 when no write is counted. */
	int maxFieldsPerWrite() {
		return this.maxFieldsPerWrite;
	}

	/**
	 * Takes bucket {@code bucket}'s one counted write, adding {@code fields} fields at most: whether
	 * the write may go counted. The caller then reports {@link #counted} or {@link #countFailed}
	 * exactly once.
	 */
	boolean tryCount(int bucket, int fields) {
		if (fields > this.maxFieldsPerWrite) {
			return false;
		}
		int epoch = epoch();
		while (true) {
			int seen = get(bucket);
			if (state(seen) != BELOW || ((epoch - epoch(seen)) & EPOCH_MASK) > 1) {
				return false;
			}
			if (compareAndSet(bucket, seen, COUNTING, epoch(seen))) {
				return true;
			}
		}
	}

	/** A counted write to {@code bucket} ended, leaving {@code count} fields in it. */
	void counted(int bucket, long count) {
		int seen = get(bucket);
		while (state(seen) == COUNTING
				&& !compareAndSet(bucket, seen, (count < this.softLimit) ? BELOW : NEAR_FULL, epoch())) {
			seen = get(bucket);
		}
	}

	/** A counted write to {@code bucket} ended with no count: whether it changed the bucket is unknown. */
	void countFailed(int bucket) {
		int seen = get(bucket);
		while (state(seen) == COUNTING && !compareAndSet(bucket, seen, UNKNOWN, 0)) {
			seen = get(bucket);
		}
	}

	/**
	 * A write that took the counted writes of the hashed buckets of {@code locations} ended with no
	 * count: each bucket given back once, as a second release could end another write's counted write.
	 */
	void countFailed(List<Location> locations) {
		locations.stream().filter(Location::isHashed).mapToInt(Location::hashedIndex).distinct()
			.forEach(this::countFailed);
	}

	/**
	 * A checked write saw {@code count} fields in {@code bucket}. A count under the soft limit
	 * leaves a bucket with a counted write in flight as it is: this reply may be older than that
	 * write's.
	 */
	void checked(int bucket, long count) {
		while (true) {
			int seen = get(bucket);
			int state = state(seen);
			if (count >= this.softLimit) {
				if (state == NEAR_FULL || compareAndSet(bucket, seen, NEAR_FULL, 0)) {
					return;
				}
			}
			else if ((state != UNKNOWN && state != BELOW) || compareAndSet(bucket, seen, BELOW, epoch())) {
				return;
			}
		}
	}

	private int epoch() {
		return (int) (this.nanoTime.getAsLong() / WINDOW_NANOS) & EPOCH_MASK;
	}

	/** The 16 bits of {@code bucket}: its epoch above its state. */
	private int get(int bucket) {
		return (this.states.get(bucket / 2) >>> shift(bucket)) & 0xffff;
	}

	private boolean compareAndSet(int bucket, int expected, int state, int epoch) {
		int word = bucket / 2;
		int shift = shift(bucket);
		int next = (epoch << 2) | state;
		while (true) {
			int current = this.states.get(word);
			if (((current >>> shift) & 0xffff) != expected) {
				return false;
			}
			int updated = (current & ~(0xffff << shift)) | (next << shift);
			if (this.states.compareAndSet(word, current, updated)) {
				return true;
			}
		}
	}

	private static int state(int bits) {
		return bits & 3;
	}

	private static int epoch(int bits) {
		return bits >>> 2;
	}

	private static int shift(int bucket) {
		return 16 * (bucket % 2);
	}

}
