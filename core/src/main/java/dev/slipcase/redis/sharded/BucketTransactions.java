package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.sharded.BucketScripts.Place;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import org.springframework.data.redis.RedisSystemException;

/**
 * The plain write without a script: values of numeric buckets (no entry limit to check), no NX,
 * no TTL, no bucket TTL. Per bucket, one {@code MULTI}/{@code EXEC} block on a
 * {@link TransactionLane}: an {@code HSET} of every field (the value, or the overflow marker of a
 * value too long for a compact hash), a {@code DEL} of the overflow keys of the values that fit,
 * and a {@code SET} of each overflow value. {@code HSET} and {@code SET} clear any TTL, as a plain
 * {@code SET} does. On a standalone server all buckets of one write share one block. Thread-safe.
 */
final class BucketTransactions {

	private final TransactionLane<byte[], byte[]> lane;

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	BucketTransactions(TransactionLane<byte[], byte[]> lane, CommandChannel<byte[], byte[]> redis,
			ShardedNamespace namespace) {
		this.lane = lane;
		this.redis = redis;
		this.namespace = namespace;
	}

	/**
	 * Writes every value, or returns {@code false} when Redis refused a block without running it
	 * (its slot moved, say): then nothing of that block was written, and the caller writes another way.
	 */
	boolean write(List<Location> locations, List<byte[]> values, List<Place> places) {
		KeyGroups blocks = this.redis.isCluster() ? KeyGroups.by(locations, Location::bucketName)
				: KeyGroups.by(locations, (location) -> "");
		List<CompletableFuture<TransactionResult>> results = new ArrayList<>(blocks.count());
		for (int block = 0; block < blocks.count(); block++) {
			List<Location> group = blocks.select(block, locations);
			results.add(this.lane.execute(this.redis.database(), group.get(0).bucket(),
					commands(group, blocks.select(block, values), blocks.select(block, places))));
		}
		try {
			this.redis.awaitAll(results, "write " + locations.size() + " keys of namespace '" + this.namespace.name()
					+ "'", null);
		}
		catch (RedisSystemException ex) {
			if (ex.getCause() instanceof RedisCommandExecutionException) {
				return false;
			}
			throw ex;
		}
		for (CompletableFuture<TransactionResult> result : results) {
			for (Object reply : result.join()) {
				if (reply instanceof Exception refused) {
					throw new RedisSystemException("Redis refused to write keys of namespace '" + this.namespace.name()
							+ "': " + refused.getMessage(), refused);
				}
			}
		}
		return true;
	}

	private static List<AsyncCommand<byte[], byte[], ?>> commands(List<Location> locations, List<byte[]> values,
			List<Place> places) {
		List<AsyncCommand<byte[], byte[], ?>> commands = new ArrayList<>();
		KeyGroups buckets = KeyGroups.by(locations, Location::bucketName);
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			CommandArgs<byte[], byte[]> fields = args().addKey(locations.get(positions[0]).bucket());
			CommandArgs<byte[], byte[]> unused = args();
			int unusedCount = 0;
			for (int i : positions) {
				Location location = locations.get(i);
				if (places.get(i) == Place.OVERFLOW_ONLY) {
					commands.add(set(location.overflow(), values.get(i)));
					continue;
				}
				if (places.get(i) == Place.FIELD) {
					fields.add(location.field()).addValue(FieldValues.encode(values.get(i)));
					unused.addKey(location.overflow());
					unusedCount++;
				}
				else {
					commands.add(set(location.overflow(), values.get(i)));
					fields.add(location.field()).addValue(FieldValues.OVERFLOW);
				}
			}
			if (fields.count() > 1) {
				commands.add(TransactionLane.command(CommandType.HSET, new IntegerOutput<>(ByteArrayCodec.INSTANCE), fields));
			}
			if (unusedCount > 0) {
				commands.add(TransactionLane.command(CommandType.DEL, new IntegerOutput<>(ByteArrayCodec.INSTANCE), unused));
			}
		}
		return commands;
	}

	private static AsyncCommand<byte[], byte[], String> set(byte[] key, byte[] value) {
		return TransactionLane.command(CommandType.SET, new StatusOutput<>(ByteArrayCodec.INSTANCE),
				args().addKey(key).addValue(value));
	}

	private static CommandArgs<byte[], byte[]> args() {
		return new CommandArgs<>(ByteArrayCodec.INSTANCE);
	}

}
