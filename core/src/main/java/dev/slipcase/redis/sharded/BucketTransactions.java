package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.QueuedWrites;
import dev.slipcase.redis.lettuce.RedisFailures;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.sharded.BucketScripts.Place;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;

/**
 * Writes without a script: no NX, no bucket TTL; with a TTL only where the server expires hash
 * fields; to a hashed bucket only as a counted write its {@link BucketFill} allowed. Per bucket, one
 * {@code MULTI}/{@code EXEC} block on a {@link TransactionLane}: one command setting every field (the
 * value, or the overflow marker of a value too long for a compact hash), an {@code HLEN} of a hashed
 * bucket, whose reply goes to the fill, a {@code DEL} of the overflow keys of the values that fit,
 * and a {@code SET} of each overflow value. The field command is {@code HSET}, which
 * clears any field TTL as a plain {@code SET} does; with a TTL, {@code HSETEX … PX} (Redis 8.0) or
 * {@code HSET} and {@code HPEXPIRE} (Redis 7.4), the marker of an overflow value expiring with it.
 * A write that keeps the TTL never comes here: a value behind the overflow marker may hold its TTL on
 * the overflow key alone (written before an upgrade from Redis 7), which {@code HSETEX … KEEPTTL}
 * and the block's {@code DEL} would drop; the script reads the TTL where the value lives. On a standalone server
 * all buckets of one write share one block. Thread-safe.
 */
final class BucketTransactions {

	private final TransactionLane lane;

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final ServerLimits limits;

	BucketTransactions(TransactionLane lane, CommandChannel<byte[], byte[]> redis,
			ShardedNamespace namespace, ServerLimits limits) {
		this.lane = lane;
		this.redis = redis;
		this.namespace = namespace;
		this.limits = limits;
	}

	/**
	 * Whether {@link #write} can write with {@code ttlMode}: always without a TTL, with one as the
	 * server allows, never keeping the current one (see the class).
	 */
	boolean supports(TtlMode ttlMode) {
		return switch (ttlMode) {
			case CLEAR -> true;
			case SET -> this.limits.fieldExpiry();
			case KEEP -> false;
		};
	}

	/**
	 * Writes the values, one block per bucket on a cluster (one block in all on a standalone server),
	 * and reports the count of each hashed bucket written to {@code fill}: {@link BucketFill#counted}
	 * when its block ran, else {@link BucketFill#countFailed}, once per bucket whatever the outcome.
	 * @param values the values, which stay the caller's: the lane pins those a block may still write
	 * until it is done with them, so the caller releases them when its call is done, however it ends
	 * @param ttlMillis the TTL of {@link TtlMode#SET}, else 0
	 * @param alongside commands sent in the same turn as the blocks (the scripts of the same
	 * write's other buckets), {@code null} for none
	 * @param alongsideReplies the futures of {@code alongside}'s commands
	 * @return the positions of the values Redis refused to write because their block did not run
	 * (its slot moved, say): nothing of such a block was written, and the caller writes those values
	 * another way; empty when every block ran. Fails with a {@link RedisSystemException} when a
	 * block ran and Redis refused one of its commands.
	 */
	CompletableFuture<List<Integer>> write(CallSteps steps, List<Location> locations, List<EncodedValue> values,
			List<Place> places, TtlMode ttlMode, long ttlMillis, BucketFill fill, @Nullable Pipeline<?, ?> alongside,
			Collection<? extends Future<?>> alongsideReplies) {
		KeyGroups blocks = this.redis.isCluster() ? KeyGroups.byNumber(locations, (i) -> true, Location::bucketId)
				: KeyGroups.all(locations.size());
		int blockCount = blocks.count();
		List<Supplier<CompletableFuture<TransactionResult>>> sendings = (blockCount != 1) ? new ArrayList<>(blockCount)
				: null;
		// per block, the HLENs of its hashed buckets (none for numeric buckets)
		List<List<Counted>> counts = (blockCount != 1) ? new ArrayList<>(blockCount) : null;
		List<Counted> onlyBlockCounts = List.of();
		List<CompletableFuture<TransactionResult>> sent;
		try {
			for (int block = 0; block < blockCount; block++) {
				List<Location> group = blocks.select(block, locations);
				List<Counted> blockCounts = new ArrayList<>(0);
				QueuedWrites writes = writes(group, blocks.select(block, values), blocks.select(block, places), ttlMode,
						ttlMillis, blockCounts);
				Supplier<CompletableFuture<TransactionResult>> sending = () -> this.lane.execute(this.redis.database(),
						group.get(0).bucket(), writes);
				if (sendings == null) {
					sendings = List.of(sending);
					onlyBlockCounts = blockCounts;
				}
				else {
					sendings.add(sending);
					counts.add(blockCounts);
				}
			}
			// one turn: giving the call up cancels every block (and command alongside) not yet written
			sent = (alongside != null) ? steps.sendTogether(alongside, alongsideReplies, sendings)
					: steps.sendTogether(sendings);
		}
		catch (RuntimeException ex) {
			// unknown is what a bucket whose block may have gone out is
			fill.countFailed(locations);
			throw ex;
		}
		List<CompletableFuture<TransactionResult>> results;
		if (counts == null) {
			results = List.of(reported(sent.get(0), onlyBlockCounts, fill));
		}
		else {
			results = new ArrayList<>(sent.size());
			for (int block = 0; block < sent.size(); block++) {
				results.add(reported(sent.get(block), counts.get(block), fill));
			}
		}
		int keys = locations.size();
		return CommandChannel.settled(results).thenApply((settled) -> refused(blocks, results, keys));
	}

	/**
	 * The block's result once its hashed buckets' counts went to {@code fill}: reported before the
	 * write completes, so that the caller's next write finds them.
	 */
	private static CompletableFuture<TransactionResult> reported(CompletableFuture<TransactionResult> block,
			List<Counted> counts, BucketFill fill) {
		return counts.isEmpty() ? block
				: block.whenComplete((ran, failure) -> counts.forEach((counted) -> counted.report(fill, ran)));
	}

	/**
	 * The positions of the values whose block Redis did not apply.
	 * @throws RedisSystemException when a block ran and Redis refused one of its commands
	 */
	private List<Integer> refused(KeyGroups blocks, List<CompletableFuture<TransactionResult>> results, int keys) {
		List<Integer> refused = List.of();
		for (int block = 0; block < blocks.count(); block++) {
			CompletableFuture<TransactionResult> result = results.get(block);
			if (result.isCompletedExceptionally()) {
				Throwable failure = RedisFailures.unwrap(result.handle((ok, ex) -> ex).join());
				if (!RedisFailures.isBlockNotApplied(failure)) {
					// the connection failed or timed out, the reply was lost (a replay of a block
					// that may have run), EXEC was refused for another reason, or the call was given
					// up: whether the block ran is unknown, so it is never written another way
					throw RedisFailures.translate(failure,
							"write " + keys + " keys of namespace '" + this.namespace.name() + "'");
				}
				if (refused.isEmpty()) {
					refused = new ArrayList<>();
				}
				for (int position : blocks.positions(block)) {
					refused.add(position);
				}
				continue;
			}
			for (Object reply : result.join()) {
				if (reply instanceof Exception rejected) {
					throw new RedisSystemException("Redis refused to write keys of namespace '" + this.namespace.name()
							+ "': " + rejected.getMessage(), rejected);
				}
			}
		}
		return refused;
	}

	/**
	 * The block's writes: per bucket the {@code SET} of each overflow value, the command(s) setting
	 * its fields and the {@code HLEN} of a hashed bucket, whose place goes to {@code counts}; then
	 * one {@code DEL} of the overflow keys of the values that fit (its keys share the block's slot
	 * on a cluster, and a standalone server has no slots).
	 */
	private QueuedWrites writes(List<Location> locations, List<EncodedValue> values, List<Place> places, TtlMode ttlMode,
			long ttlMillis, List<Counted> counts) {
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> true, Location::bucketId);
		QueuedWrites writes = sized(locations, places, buckets, ttlMode);
		int unused = 0;
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			int fields = 0;
			for (int i : positions) {
				Place place = places.get(i);
				if (place != Place.FIELD) {
					set(writes, locations.get(i).overflow(), values.get(i), ttlMode, ttlMillis);
				}
				fields += (place != Place.OVERFLOW_ONLY) ? 1 : 0;
				unused += (place == Place.FIELD) ? 1 : 0;
			}
			Location first = locations.get(positions[0]);
			if (fields > 0) {
				setFields(writes, first.bucket(), positions, fields, locations, values, places, ttlMode, ttlMillis);
			}
			if (first.isHashed()) {
				counts.add(new Counted(first.hashedIndex(), writes.size()));
				writes.command(CommandType.HLEN).add(first.bucket());
			}
		}
		if (unused > 0) {
			writes.command(CommandType.DEL);
			for (int i = 0; i < locations.size(); i++) {
				if (places.get(i) == Place.FIELD) {
					writes.add(locations.get(i).overflow());
				}
			}
		}
		return writes;
	}

	/** Room for the writes of {@link #writes}, counted as it makes them, so that they never grow. */
	private QueuedWrites sized(List<Location> locations, List<Place> places, KeyGroups buckets, TtlMode ttlMode) {
		boolean twoCommands = ttlMode == TtlMode.SET && !this.limits.setWithExpiry();
		int commands = 1;
		int arguments = 0;
		for (int i = 0; i < locations.size(); i++) {
			Place place = places.get(i);
			if (place != Place.FIELD) {
				commands++;
				arguments += (ttlMode == TtlMode.SET) ? 4 : 2;
			}
			if (place != Place.OVERFLOW_ONLY) {
				// the field and its value, and the field again in HPEXPIRE
				arguments += twoCommands ? 3 : 2;
			}
			if (place == Place.FIELD) {
				arguments++; // the overflow key in DEL
			}
		}
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			// the field command(s) with their key and options, and the HLEN of a hashed bucket
			commands += twoCommands ? 2 : 1;
			arguments += (ttlMode == TtlMode.CLEAR) ? 1 : 5;
			if (locations.get(buckets.positions(bucket)[0]).isHashed()) {
				commands++;
				arguments++;
			}
		}
		return QueuedWrites.of(commands, arguments);
	}

	/**
	 * The command(s) setting the {@code fields} fields of one bucket: {@code HSET}, or with the TTL
	 * asked for ({@link TtlMode#SET}) {@code HSETEX … PX} or {@code HSET} and {@code HPEXPIRE}.
	 */
	private void setFields(QueuedWrites writes, byte[] bucket, int[] positions, int fields, List<Location> locations,
			List<EncodedValue> values, List<Place> places, TtlMode ttlMode, long ttlMillis) {
		boolean expiring = ttlMode == TtlMode.SET;
		if (expiring && this.limits.setWithExpiry()) {
			writes.command(CommandType.HSETEX).add(bucket).add(CommandKeyword.PX).add(ttlMillis);
			writes.add(CommandKeyword.FIELDS).add(fields);
		}
		else {
			writes.command(CommandType.HSET).add(bucket);
		}
		for (int i : positions) {
			Place place = places.get(i);
			if (place == Place.FIELD) {
				FieldValues.add(writes.add(locations.get(i).field()), values.get(i));
			}
			else if (place == Place.MARKED_OVERFLOW) {
				writes.add(locations.get(i).field()).add(FieldValues.OVERFLOW);
			}
		}
		if (expiring && !this.limits.setWithExpiry()) {
			writes.command(CommandType.HPEXPIRE).add(bucket).add(ttlMillis).add(CommandKeyword.FIELDS).add(fields);
			for (int i : positions) {
				if (places.get(i) != Place.OVERFLOW_ONLY) {
					writes.add(locations.get(i).field());
				}
			}
		}
	}

	private static void set(QueuedWrites writes, byte[] key, EncodedValue value, TtlMode ttlMode, long ttlMillis) {
		writes.command(CommandType.SET).add(key).add(value);
		if (ttlMode == TtlMode.SET) {
			writes.add(CommandKeyword.PX).add(ttlMillis);
		}
	}

	/** The {@code HLEN} of hashed bucket {@code bucket}, command {@code command} of its block. */
	private record Counted(int bucket, int command) {

		/**
		 * Reports the bucket's count to {@code fill}, or that it has none when the block did not run
		 * ({@code replies} is {@code null}).
		 */
		void report(BucketFill fill, @Nullable TransactionResult replies) {
			Object count = (replies != null && this.command < replies.size()) ? replies.get(this.command) : null;
			if (count instanceof Long hlen) {
				fill.counted(this.bucket, hlen);
			}
			else {
				fill.countFailed(this.bucket);
			}
		}

	}

}
