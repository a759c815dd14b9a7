package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.slipcase.redis.lettuce.BinaryCommands;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.sharded.KeyPlacement.Owned;
import org.jspecify.annotations.Nullable;

/**
 * Walks the keys of one namespace with {@code SCAN} (on a cluster, every master's): its values
 * bucket by bucket, the names of its buckets, and the plain keys of its key prefix that a
 * {@link ShardedMigrator} moves in. Keys written during a walk may or may not be seen. Thread-safe.
 */
final class BucketScan {

	private static final int VALUES_PER_PAGE = 200;

	private static final int BUCKETS_PER_PAGE = 500;

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final KeyPlacement placement;

	BucketScan(BucketStore store) {
		this.redis = store.redis();
		this.namespace = store.namespace();
		this.placement = store.placement();
	}

	/**
	 * Calls {@code action} with every logical key of the namespace and its raw value, bucket by
	 * bucket ({@code SCAN}, then {@code HGETALL} of the buckets and {@code GET} of the overflow keys
	 * of each page, pipelined). Plain keys read through from before a migration are not included.
	 */
	void forEach(BiConsumer<String, byte[]> action) {
		Set<String> seen = new HashSet<>();
		for (String pattern : this.placement.scanPatterns()) {
			this.redis.scan(pattern, VALUES_PER_PAGE, (keys) -> {
				visit(keys, seen, action);
				return true;
			});
		}
	}

	private void visit(List<byte[]> keys, Set<String> seen, BiConsumer<String, byte[]> action) {
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<String> bucketNames = new ArrayList<>();
		List<CompletableFuture<Map<byte[], byte[]>>> buckets = new ArrayList<>();
		List<Owned> overflowKeys = new ArrayList<>();
		List<CompletableFuture<byte @Nullable []>> overflowValues = new ArrayList<>();
		for (byte[] key : keys) {
			String name = new String(key, StandardCharsets.UTF_8);
			Owned owned = this.placement.parse(name);
			if (owned == null || !seen.add(name)) {
				continue;
			}
			if (owned.field() == null) {
				bucketNames.add(name);
				buckets.add(pipeline.submit(BinaryCommands.hgetall(key)));
			}
			else {
				overflowKeys.add(owned);
				overflowValues.add(pipeline.submit(BinaryCommands.get(key)));
			}
		}
		pipeline.send();
		List<CompletableFuture<?>> all = new ArrayList<>(buckets);
		all.addAll(overflowValues);
		this.redis.awaitAll(all, "read " + keys.size() + " keys of namespace '" + this.namespace.name() + "'", null);
		for (int i = 0; i < buckets.size(); i++) {
			for (Map.Entry<byte[], byte[]> entry : buckets.get(i).join().entrySet()) {
				if (FieldValues.isOverflow(entry.getValue())) {
					continue; // the value is its overflow key's, visited on its own
				}
				action.accept(this.placement.logicalKey(bucketNames.get(i), new String(entry.getKey(), StandardCharsets.UTF_8)),
						FieldValues.decode(entry.getValue()));
			}
		}
		for (int i = 0; i < overflowKeys.size(); i++) {
			Owned owned = overflowKeys.get(i);
			byte[] value = overflowValues.get(i).join();
			if (value != null) {
				action.accept(this.placement.logicalKey(owned.bucket(), Objects.requireNonNull(owned.field())), value);
			}
		}
	}

	/** The names of up to {@code max} buckets of the namespace, in the order {@code SCAN} finds them. */
	List<String> bucketNames(int max) {
		Set<String> found = new LinkedHashSet<>();
		for (String pattern : this.placement.scanPatterns()) {
			if (found.size() < max) {
				this.redis.scan(pattern, BUCKETS_PER_PAGE, (keys) -> {
					for (byte[] key : keys) {
						Owned owned = this.placement.parse(new String(key, StandardCharsets.UTF_8));
						if (owned != null && owned.field() == null && found.size() < max) {
							found.add(owned.bucket());
						}
					}
					return found.size() < max;
				});
			}
		}
		return new ArrayList<>(found);
	}

	/**
	 * Hands the plain keys of the namespace's key prefix to {@code page}, page by page ({@code SCAN}
	 * with {@code count} as its hint); the namespace's own bucket and overflow keys are left out, so
	 * a page may be empty.
	 */
	void plainKeys(int count, Consumer<List<byte[]>> page) {
		String own = this.namespace.bucketPrefix();
		this.redis.scan(KeyPlacement.escapeGlob(this.namespace.keyPrefix()) + "*", count, (keys) -> {
			page.accept(keys.stream().filter((key) -> !new String(key, StandardCharsets.UTF_8).startsWith(own)).toList());
			return true;
		});
	}

}
