package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.BucketStore.PlainValue;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Moves a namespace's existing plain keys ({@code user:1234} holding a string) into their buckets:
 * {@code SCAN}s the keys with the namespace's key prefix in batches, copies each value only where
 * the bucket has none yet (so values written through the template meanwhile win), carries each TTL
 * over, and deletes a plain key only after its copy was acknowledged and only while it still holds
 * the value copied. Re-running after an interruption resumes: copied keys are gone, the rest are
 * copied. Values must have been written with the template's serializer; unreadable values are
 * skipped and left in place. Thread-safe, but run one migration of a namespace at a time.
 */
public final class ShardedMigrator {

	private final BucketStore store;

	private final BucketScan scan;

	private final RedisSerializer<?> serializer;

	ShardedMigrator(BucketStore store, BucketScan scan, RedisSerializer<?> serializer) {
		if (store.namespace().keyPrefix().isEmpty()) {
			throw new IllegalStateException("Namespace '" + store.namespace().name() + "' has no key prefix, so its "
					+ "plain keys cannot be told from other keys; set keyPrefix to migrate");
		}
		this.store = store;
		this.scan = scan;
		this.serializer = serializer;
	}

	/**
	 * Migrates every plain key of the namespace.
	 * @param batchSize keys per {@code SCAN} page and per pipelined batch, at least 1
	 * @param listener told the progress after each batch, may be {@code null}
	 * @return the final progress
	 */
	public MigrationProgress migrate(int batchSize, @Nullable Consumer<MigrationProgress> listener) {
		if (batchSize < 1) {
			throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
		}
		Counts counts = new Counts();
		this.scan.plainKeys(batchSize, (keys) -> {
			migrateBatch(keys, counts);
			if (listener != null) {
				listener.accept(counts.progress(false));
			}
		});
		MigrationProgress done = counts.progress(true);
		if (listener != null) {
			listener.accept(done);
		}
		return done;
	}

	private void migrateBatch(List<byte[]> keys, Counts counts) {
		counts.scanned += keys.size();
		List<PlainValue> plain = this.store.readPlainKeys(keys);
		List<PlainValue> copied = new ArrayList<>();
		List<Location> untimed = new ArrayList<>();
		List<PlainValue> untimedValues = new ArrayList<>();
		for (PlainValue value : plain) {
			String name = new String(value.key(), StandardCharsets.UTF_8);
			if (value.value() == null || !readable(value.value())) {
				counts.skipped++;
				continue;
			}
			Location location = this.store.locate(name);
			if (value.ttlMillis() > 0) {
				try {
					boolean written = this.store.redis()
						.await(this.store.write(List.of(location), List.of(wrapped(value.value())), true, TtlMode.SET,
								Duration.ofMillis(value.ttlMillis())), "migrate", name)[0];
					counts.copiedOrKept(written);
					copied.add(value);
				}
				catch (UnsupportedOperationException ex) {
					counts.skipped++;
				}
			}
			else if (value.ttlMillis() == -1) {
				untimed.add(location);
				untimedValues.add(value);
			}
			else {
				counts.skipped++;
			}
		}
		if (!untimed.isEmpty()) {
			List<EncodedValue> values = untimedValues.stream().map((plainValue) -> wrapped(plainValue.value())).toList();
			boolean[] written = this.store.redis()
				.await(this.store.write(untimed, values, true, TtlMode.CLEAR, null),
						"migrate " + untimed.size() + " keys", null);
			for (int i = 0; i < written.length; i++) {
				counts.copiedOrKept(written[i]);
				copied.add(untimedValues.get(i));
			}
		}
		for (boolean deleted : this.store.deletePlainKeysIfUnchanged(copied)) {
			if (deleted) {
				counts.deleted++;
			}
			else {
				counts.skipped++;
			}
		}
	}

	/** A plain key's value as the store writes it: the array held as it is, not copied; the store releases it. */
	private static EncodedValue wrapped(byte @Nullable [] value) {
		return EncodedValue.of(Objects.requireNonNull(value));
	}

	private boolean readable(byte[] value) {
		try {
			return this.serializer.deserialize(value) != null;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** What a migration did so far. */
	private static final class Counts {

		long scanned;

		long copied;

		long kept;

		long skipped;

		long deleted;

		void copiedOrKept(boolean written) {
			if (written) {
				this.copied++;
			}
			else {
				this.kept++;
			}
		}

		MigrationProgress progress(boolean finished) {
			return new MigrationProgress(this.scanned, this.copied, this.kept, this.skipped, this.deleted, finished);
		}

	}

}
