package dev.slipcase.redis.sharded;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What this process last saw of each hashed bucket's entry count, and which buckets may take a
 * counted write: one that adds fields with plain commands and learns the count from an
 * {@code HLEN} sent behind it, instead of a script that checks the count first. Two bits per
 * bucket, sixteen to an {@code int}. Thread-safe.
 * <p>
 * A bucket takes a counted write only while the count last seen is below the {@link #limit()},
 * with at most one counted write in flight per bucket, and each adding at most
 * {@link #maxFieldsPerWrite()} fields. Scripts refuse new fields at the limit, which leaves
 * {@code maxEntries - limit} fields of headroom for the counted writes of instances that saw a
 * lower count a moment before: a bucket leaves the compact encoding only if more than
 * {@code headroom / maxFieldsPerWrite} instances (16 with any {@code maxEntries} from 256 on) race it past the
 * limit at once. A bucket seen at the limit stays on the checked path for this process's life; one
 * whose counted write failed is unknown again, and unknown buckets take the checked path, whose
 * reply says the count.
 */
final class BucketFill {

	/** The least {@code maxEntries} with counted writes: below it the headroom is under 16 fields. */
	static final int LEAST_MAX_ENTRIES = 256;

	private static final int UNKNOWN = 0;

	private static final int BELOW = 1;

	private static final int COUNTING = 2;

	private static final int AT_LIMIT = 3;

	private static final int BUCKETS_PER_WORD = 16;

	private final AtomicIntegerArray states;

	private final int limit;

	private final int maxFieldsPerWrite;

	private BucketFill(int bucketCount, int limit, int maxFieldsPerWrite) {
		this.states = new AtomicIntegerArray((bucketCount + BUCKETS_PER_WORD - 1) / BUCKETS_PER_WORD);
		this.limit = limit;
		this.maxFieldsPerWrite = maxFieldsPerWrite;
	}

	/**
	 * The fill of {@code bucketCount} hashed buckets on a server that keeps {@code maxEntries}
	 * fields in a compact hash: the limit is {@code maxEntries} less a sixteenth (480 of 512), each
	 * counted write adds at most {@code maxEntries / 256} fields. Below {@link #LEAST_MAX_ENTRIES} no
	 * write is counted and the limit is {@code maxEntries} itself.
	 */
	static BucketFill of(int bucketCount, int maxEntries) {
		if (maxEntries < LEAST_MAX_ENTRIES) {
			return new BucketFill(bucketCount, maxEntries, 0);
		}
		return new BucketFill(bucketCount, maxEntries - maxEntries / 16, maxEntries / LEAST_MAX_ENTRIES);
	}

	/** The most fields a hashed bucket holds: scripts refuse a new field beyond it. */
	int limit() {
		return this.limit;
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
		return fields <= this.maxFieldsPerWrite && compareAndSet(bucket, BELOW, COUNTING);
	}

	/** A counted write to {@code bucket} ended, leaving {@code count} fields in it. */
	void counted(int bucket, long count) {
		compareAndSet(bucket, COUNTING, (count < this.limit) ? BELOW : AT_LIMIT);
	}

	/** A counted write to {@code bucket} ended with no count: whether it changed the bucket is unknown. */
	void countFailed(int bucket) {
		compareAndSet(bucket, COUNTING, UNKNOWN);
	}

	/** A checked write saw {@code count} fields in {@code bucket}. */
	void checked(int bucket, long count) {
		if (count >= this.limit) {
			while (true) {
				int state = state(bucket);
				if (state == AT_LIMIT || compareAndSet(bucket, state, AT_LIMIT)) {
					return;
				}
			}
		}
		// only an unknown bucket learns a lower count: a checked reply can be older than the
		// counted one that took the bucket off the unknown state
		compareAndSet(bucket, UNKNOWN, BELOW);
	}

	private int state(int bucket) {
		return (this.states.get(bucket / BUCKETS_PER_WORD) >>> shift(bucket)) & 3;
	}

	private boolean compareAndSet(int bucket, int expected, int next) {
		int word = bucket / BUCKETS_PER_WORD;
		int shift = shift(bucket);
		while (true) {
			int current = this.states.get(word);
			if (((current >>> shift) & 3) != expected) {
				return false;
			}
			int updated = (current & ~(3 << shift)) | (next << shift);
			if (this.states.compareAndSet(word, current, updated)) {
				return true;
			}
		}
	}

	private static int shift(int bucket) {
		return 2 * (bucket % BUCKETS_PER_WORD);
	}

}
