package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import dev.slipcase.redis.sharded.KeyPlacement.Location;

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

	private final ShardedTemplate<?> template;

	ShardedMigrator(ShardedTemplate<?> template) {
		if (template.namespace().keyPrefix().isEmpty()) {
			throw new IllegalStateException("Namespace '" + template.namespace().name() + "' has no key prefix, so its "
					+ "plain keys cannot be told from other keys; set keyPrefix to migrate");
		}
		this.template = template;
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
		ShardedNamespace namespace = this.template.namespace();
		long[] counts = new long[5];
		String pattern = KeyPlacement.escapeGlob(namespace.keyPrefix()) + "*";
		this.template.scan(pattern, batchSize, (keys) -> {
			migrateBatch(keys, counts);
			if (listener != null) {
				listener.accept(progress(counts, false));
			}
			return true;
		});
		MigrationProgress done = progress(counts, true);
		if (listener != null) {
			listener.accept(done);
		}
		return done;
	}

	private void migrateBatch(List<byte[]> keys, long[] counts) {
		RedisClusterAsyncCommands<byte[], byte[]> commands = this.template.commands();
		String owned = this.template.namespace().bucketPrefix();
		List<String> names = new ArrayList<>();
		List<byte[]> rawKeys = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, java.nio.charset.StandardCharsets.UTF_8);
			if (!name.startsWith(owned)) {
				names.add(name);
				rawKeys.add(key);
			}
		}
		counts[0] += names.size();
		List<CompletableFuture<byte @Nullable []>> values = new ArrayList<>();
		List<CompletableFuture<Long>> ttls = new ArrayList<>();
		for (byte[] key : rawKeys) {
			values.add(commands.get(key).toCompletableFuture().exceptionally((ex) -> null));
			ttls.add(commands.pttl(key).toCompletableFuture());
		}
		this.template.awaitAll(values, "read " + names.size() + " plain keys");
		this.template.awaitAll(ttls, "read the TTLs of " + names.size() + " plain keys");

		List<Location> untimed = new ArrayList<>();
		List<byte[]> untimedValues = new ArrayList<>();
		List<Integer> untimedIndexes = new ArrayList<>();
		boolean[] done = new boolean[names.size()];
		boolean[] written = new boolean[names.size()];
		for (int i = 0; i < names.size(); i++) {
			byte[] value = values.get(i).join();
			if (value == null || !readable(value, names.get(i))) {
				counts[3]++;
				continue;
			}
			Location location = this.template.placement().locate(names.get(i));
			long ttl = ttls.get(i).join();
			if (ttl > 0) {
				try {
					written[i] = this.template.write(List.of(location), List.of(value), true, ShardedTemplate.TtlMode.SET,
							Duration.ofMillis(ttl))[0];
					done[i] = true;
				}
				catch (UnsupportedOperationException ex) {
					counts[3]++;
				}
			}
			else if (ttl == -1) {
				untimed.add(location);
				untimedValues.add(value);
				untimedIndexes.add(i);
			}
			else {
				counts[3]++;
			}
		}
		if (!untimed.isEmpty()) {
			boolean[] result = this.template.write(untimed, untimedValues, true, ShardedTemplate.TtlMode.CLEAR, null);
			for (int j = 0; j < result.length; j++) {
				written[untimedIndexes.get(j)] = result[j];
				done[untimedIndexes.get(j)] = true;
			}
		}
		List<CompletableFuture<Long>> deletes = new ArrayList<>();
		for (int i = 0; i < names.size(); i++) {
			if (done[i]) {
				counts[written[i] ? 1 : 2]++;
				deletes.add(this.template.script(Script.DELETE_IF_VALUE, ScriptOutputType.INTEGER,
						new byte[][] { rawKeys.get(i) }, values.get(i).join()));
			}
		}
		this.template.awaitAll(deletes, "delete " + deletes.size() + " migrated plain keys");
		for (CompletableFuture<Long> delete : deletes) {
			if (delete.join() == 1) {
				counts[4]++;
			}
			else {
				counts[3]++;
			}
		}
	}

	private boolean readable(byte[] value, String key) {
		try {
			this.template.checkReadable(value, key);
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static MigrationProgress progress(long[] counts, boolean finished) {
		return new MigrationProgress(counts[0], counts[1], counts[2], counts[3], counts[4], finished);
	}

}
