package dev.slipcase.redis.sharded;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.lettuce.RedisFailures;
import dev.slipcase.redis.lettuce.SlipcaseCommand;
import dev.slipcase.redis.lettuce.TransactionLane;
import dev.slipcase.redis.sharded.BucketScripts.Place;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerListOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
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

	private final TransactionLane<byte[], byte[]> lane;

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final ServerLimits limits;

	BucketTransactions(TransactionLane<byte[], byte[]> lane, CommandChannel<byte[], byte[]> redis,
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
	 * @param ttlMillis the TTL of {@link TtlMode#SET}, else 0
	 * @param alongside commands sent in the same turn as the blocks (the scripts of the same
	 * write's other buckets), {@code null} for none
	 * @param alongsideReplies the futures of {@code alongside}'s commands
	 * @return the positions of the values Redis refused to write because their block did not run
	 * (its slot moved, say): nothing of such a block was written, and the caller writes those values
	 * another way; empty when every block ran. Fails with a {@link RedisSystemException} when a
	 * block ran and Redis refused one of its commands.
	 */
	CompletableFuture<List<Integer>> write(CallSteps steps, List<Location> locations, List<byte[]> values,
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
				List<SlipcaseCommand<byte[], byte[], ?>> commands = commands(group, blocks.select(block, values),
						blocks.select(block, places), ttlMode, ttlMillis, blockCounts);
				Supplier<CompletableFuture<TransactionResult>> sending = () -> this.lane.execute(this.redis.database(),
						group.get(0).bucket(), commands);
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
				: block.whenComplete((ran, failure) -> counts.forEach((counted) -> counted.report(fill, failure == null)));
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

	private List<SlipcaseCommand<byte[], byte[], ?>> commands(List<Location> locations, List<byte[]> values,
			List<Place> places, TtlMode ttlMode, long ttlMillis, List<Counted> counts) {
		List<SlipcaseCommand<byte[], byte[], ?>> commands = new ArrayList<>(locations.size() + 2);
		// one DEL for the whole block: its keys share the block's slot on a cluster, and a standalone
		// server has no slots
		CommandArgs<byte[], byte[]> unused = args();
		int unusedCount = 0;
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> true, Location::bucketId);
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			byte[] bucketKey = locations.get(positions[0]).bucket();
			// without a TTL the fields go straight into HSET's arguments
			CommandArgs<byte[], byte[]> hset = (ttlMode == TtlMode.CLEAR) ? args().addKey(bucketKey) : null;
			List<byte[]> fieldsAndValues = (hset == null) ? new ArrayList<>(2 * positions.length) : List.of();
			int fields = 0;
			for (int i : positions) {
				Location location = locations.get(i);
				Place place = places.get(i);
				if (place != Place.FIELD) {
					commands.add(set(location.overflow(), values.get(i), ttlMode, ttlMillis));
				}
				if (place == Place.OVERFLOW_ONLY) {
					continue;
				}
				byte[] stored = (place == Place.FIELD) ? FieldValues.encode(values.get(i)) : FieldValues.OVERFLOW;
				if (hset != null) {
					hset.add(location.field()).add(stored);
				}
				else {
					fieldsAndValues.add(location.field());
					fieldsAndValues.add(stored);
				}
				fields++;
				if (place == Place.FIELD) {
					unused.addKey(location.overflow());
					unusedCount++;
				}
			}
			if (fields > 0) {
				if (hset != null) {
					commands.add(TransactionLane.command(CommandType.HSET, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
							hset));
				}
				else {
					commands.addAll(setFields(bucketKey, fieldsAndValues, ttlMillis));
				}
			}
			Location first = locations.get(positions[0]);
			if (first.isHashed()) {
				SlipcaseCommand<byte[], byte[], Long> hlen = TransactionLane.command(CommandType.HLEN,
						new IntegerOutput<>(ByteArrayCodec.INSTANCE), args().addKey(bucketKey));
				commands.add(hlen);
				counts.add(new Counted(first.hashedIndex(), hlen));
			}
		}
		if (unusedCount > 0) {
			commands.add(TransactionLane.command(CommandType.DEL, new IntegerOutput<>(ByteArrayCodec.INSTANCE), unused));
		}
		return commands;
	}

	/** The commands that set the fields with the TTL asked for ({@link TtlMode#SET}). */
	private List<SlipcaseCommand<byte[], byte[], ?>> setFields(byte[] bucket, List<byte[]> fieldsAndValues,
			long ttlMillis) {
		if (!this.limits.setWithExpiry()) {
			CommandArgs<byte[], byte[]> args = args().addKey(bucket);
			fieldsAndValues.forEach(args::add);
			SlipcaseCommand<byte[], byte[], Long> hset = TransactionLane.command(CommandType.HSET,
					new IntegerOutput<>(ByteArrayCodec.INSTANCE), args);
			CommandArgs<byte[], byte[]> expire = args().addKey(bucket).add(ttlMillis).add(CommandKeyword.FIELDS)
				.add(fieldsAndValues.size() / 2);
			for (int i = 0; i < fieldsAndValues.size(); i += 2) {
				expire.add(fieldsAndValues.get(i));
			}
			return List.of(hset, TransactionLane.command(CommandType.HPEXPIRE,
					new IntegerListOutput<>(ByteArrayCodec.INSTANCE), expire));
		}
		CommandArgs<byte[], byte[]> args = args().addKey(bucket).add(CommandKeyword.PX).add(ttlMillis);
		args.add(CommandKeyword.FIELDS).add(fieldsAndValues.size() / 2);
		fieldsAndValues.forEach(args::add);
		return List.of(TransactionLane.command(CommandType.HSETEX, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args));
	}

	private static SlipcaseCommand<byte[], byte[], String> set(byte[] key, byte[] value, TtlMode ttlMode, long ttlMillis) {
		CommandArgs<byte[], byte[]> args = args().addKey(key).addValue(value);
		if (ttlMode == TtlMode.SET) {
			args.add(CommandKeyword.PX).add(ttlMillis);
		}
		return TransactionLane.command(CommandType.SET, new StatusOutput<>(ByteArrayCodec.INSTANCE), args);
	}

	private static CommandArgs<byte[], byte[]> args() {
		return new CommandArgs<>(ByteArrayCodec.INSTANCE);
	}

	/** The {@code HLEN} of hashed bucket {@code bucket} in a block. */
	private record Counted(int bucket, CompletableFuture<Long> hlen) {

		/** Reports the bucket's count to {@code fill}, or that it has none when the block did not run. */
		void report(BucketFill fill, boolean ran) {
			if (ran && this.hlen.isDone() && !this.hlen.isCompletedExceptionally()) {
				fill.counted(this.bucket, this.hlen.join());
			}
			else {
				fill.countFailed(this.bucket);
			}
		}

	}

}
