package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CallSteps;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.Pipeline;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.sharded.BucketScripts.Place;
import dev.slipcase.redis.sharded.BucketScripts.SetOptions;
import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link BucketStore} writes raw values: a write without NX (with a TTL where the server
 * expires hash fields) as {@code MULTI}/{@code EXEC} blocks through {@link BucketTransactions}, to
 * numeric buckets and to the hashed buckets its {@link BucketFill} lets take a counted write; any
 * other write grouped by bucket, one {@code SET} script call per bucket, pipelined, whose replies
 * tell the fill each hashed bucket's count. Atomic per bucket, not across buckets. Decides per value
 * whether it fits its bucket or goes to its overflow key, reports overflow writes to
 * {@link SlipcaseObservers}, and turns a full hashed bucket into a {@link BucketFullException}
 * naming the keys refused (the other buckets are still written). Owns no value: blocks write the
 * caller's encoded values, scripts copies of them. Thread-safe.
 */
final class BucketWrites {

	private final CommandChannel<byte[], byte[]> redis;

	private final ShardedNamespace namespace;

	private final ServerLimits limits;

	private final long bucketTtlMillis;

	private final SlipcaseObserver observer;

	private final @Nullable BucketTransactions transactions;

	private final BucketFill fill;

	BucketWrites(CommandChannel<byte[], byte[]> redis, @Nullable BucketTransactions transactions,
			ShardedNamespace namespace, ServerLimits limits, BucketFill fill, SlipcaseObserver observer) {
		this.redis = redis;
		this.transactions = transactions;
		this.fill = fill;
		this.observer = observer;
		this.namespace = namespace;
		this.limits = limits;
		Duration bucketTtl = namespace.bucketTtl();
		this.bucketTtlMillis = (bucketTtl != null) ? bucketTtl.toMillis() : 0;
	}

	/**
	 * Writes encoded values. NX: only where the key has no value. The values stay the caller's, who
	 * releases them once the call is done: a block pins those it may still write, and a script
	 * writes copies.
	 * @return per location whether it was written; fails with a {@link BucketFullException} when a
	 * hashed bucket is full (the other buckets were written)
	 * @throws UnsupportedOperationException when a TTL is asked for that neither the server nor the
	 * namespace's {@link TtlFallback} allows; nothing is written then
	 */
	CompletableFuture<boolean[]> write(CallSteps steps, List<Location> locations, List<EncodedValue> values,
			boolean nx, TtlMode ttlMode, @Nullable Duration ttl) {
		checkTtl(ttlMode);
		List<Place> places = places(locations, values);
		long ttlMillis = (ttl != null) ? ttl.toMillis() : 0;
		if (!canTransact(nx, ttlMode)) {
			return writeWithScripts(steps, locations, copies(values), places, nx, ttlMode, ttlMillis, null);
		}
		boolean[] checked = checkedPositions(locations, places);
		Positions block = Positions.where(checked, false);
		if (block.isEmpty()) {
			return writeWithScripts(steps, locations, copies(values), places, nx, ttlMode, ttlMillis, null);
		}
		// the buckets that take the checked path go in the blocks' turn
		Positions checkedFirst = Positions.where(checked, true);
		ScriptWrites scripts;
		try {
			scripts = checkedFirst.isEmpty() ? null : scriptWrites(checkedFirst.select(locations),
					copies(checkedFirst.select(values)), checkedFirst.select(places), nx, ttlMode, ttlMillis, null);
		}
		catch (RuntimeException ex) {
			// the blocks' counted writes were taken
			this.fill.countFailed(block.select(locations));
			throw ex;
		}
		CompletableFuture<List<Integer>> blocks = this.transactions.write(steps, block.select(locations),
				block.select(values), block.select(places), ttlMode, ttlMillis, this.fill,
				(scripts != null) ? scripts.pipeline() : null, (scripts != null) ? scripts.replies() : List.of());
		if (scripts == null) {
			return blocks.thenCompose((refused) -> blocksWritten(steps, locations, values, places, refused, ttlMode,
					ttlMillis));
		}
		CompletableFuture<boolean @Nullable []> scripted = written(scripts);
		// both settled before either's failure is the call's: nothing of the turn lands after it
		return CompletableFuture.allOf(blocks.handle((refused, failure) -> null), scripted.handle((done, failure) -> null))
			.thenCompose((settled) -> {
				List<Integer> refused = blocks.join();
				boolean[] written = new boolean[locations.size()];
				for (int position : block.positions()) {
					written[position] = true;
				}
				// blocks whose slot moved: their values go through the script, which the cluster
				// connection redirects
				boolean[] again = new boolean[locations.size()];
				refused.forEach((position) -> {
					written[block.positions()[position]] = false;
					again[block.positions()[position]] = true;
				});
				// only the blocks' positions are written so far: the scripts report their own
				reportOverflowWrites(written, places);
				// a full bucket among the scripts' fails the call once every other bucket was tried;
				// any other failure of theirs fails it now
				boolean[] scriptWritten = null;
				CompletionException full = null;
				try {
					scriptWritten = scripted.join();
				}
				catch (CompletionException ex) {
					if (!(ex.getCause() instanceof BucketFullException)) {
						throw ex;
					}
					full = ex;
				}
				if (scriptWritten != null) {
					for (int i = 0; i < scriptWritten.length; i++) {
						written[checkedFirst.positions()[i]] = scriptWritten[i];
					}
				}
				Positions rewrite = Positions.where(again, true);
				if (rewrite.isEmpty()) {
					if (full != null) {
						throw full;
					}
					return CompletableFuture.completedFuture(written);
				}
				CompletionException scriptsFull = full;
				return writeWithScripts(steps, rewrite.select(locations), copies(rewrite.select(values)),
						rewrite.select(places), nx, ttlMode, ttlMillis, null)
					.thenApply((rewritten) -> {
						if (scriptsFull != null) {
							throw scriptsFull;
						}
						for (int i = 0; i < rewritten.length; i++) {
							written[rewrite.positions()[i]] = rewritten[i];
						}
						return written;
					});
			});
	}

	/**
	 * Per location whether a write that went in blocks alone wrote it, once the values of the blocks
	 * Redis {@code refused} (by position) were written again by script.
	 */
	private CompletableFuture<boolean[]> blocksWritten(CallSteps steps, List<Location> locations,
			List<EncodedValue> values, List<Place> places, List<Integer> refused, TtlMode ttlMode, long ttlMillis) {
		boolean[] written = new boolean[locations.size()];
		Arrays.fill(written, true);
		refused.forEach((position) -> written[position] = false);
		reportOverflowWrites(written, places);
		if (refused.isEmpty()) {
			return CompletableFuture.completedFuture(written);
		}
		// blocks whose slot moved: their values go through the script, which the cluster connection
		// redirects
		Positions rewrite = Positions.where(written, false);
		return writeWithScripts(steps, rewrite.select(locations), copies(rewrite.select(values)), rewrite.select(places),
				false, ttlMode, ttlMillis, null)
			.thenApply((rewritten) -> {
				for (int i = 0; i < rewritten.length; i++) {
					written[rewrite.positions()[i]] = rewritten[i];
				}
				return written;
			});
	}

	/**
	 * Per position whether its value takes the checked path (a script): that of every location in
	 * a hashed bucket whose counted write the fill did not allow. Takes the fill's counted write of
	 * each other hashed bucket, which {@link BucketTransactions#write} gives back.
	 */
	private boolean[] checkedPositions(List<Location> locations, List<Place> places) {
		boolean[] checked = new boolean[locations.size()];
		boolean anyHashed = false;
		for (Location location : locations) {
			anyHashed |= location.isHashed();
		}
		if (!anyHashed) {
			return checked;
		}
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> true, Location::bucketId);
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			Location first = locations.get(positions[0]);
			if (!first.isHashed()) {
				continue;
			}
			int fields = 0;
			for (int position : positions) {
				fields += (places.get(position) != Place.OVERFLOW_ONLY) ? 1 : 0;
			}
			if (!this.fill.tryCount(first.hashedIndex(), fields)) {
				for (int position : positions) {
					checked[position] = true;
				}
			}
		}
		return checked;
	}

	/**
	 * Copies the value of a plain key (read-through) to {@code location} where it has no value yet,
	 * only while {@code plainKey} still holds {@code value}, in one script: a delete of the key
	 * between the read of the plain value and this write leaves it deleted. On a cluster the plain
	 * key lives in another slot, and the copy is written without that check.
	 * @return whether it was written
	 */
	CompletableFuture<Boolean> copyPlainValue(CallSteps steps, Location location, byte[] plainKey, byte[] value,
			TtlMode ttlMode, @Nullable Duration ttl) {
		checkTtl(ttlMode);
		List<Place> places = List.of(Place.of(location, FieldValues.encodedLength(value), this.limits.maxValueBytes()));
		return writeWithScripts(steps, List.of(location), List.of(value), places, true, ttlMode,
				(ttl != null) ? ttl.toMillis() : 0, this.redis.isCluster() ? null : plainKey)
			.thenApply((written) -> written[0]);
	}

	private void checkTtl(TtlMode ttlMode) {
		if (ttlMode == TtlMode.SET && !this.limits.fieldExpiry() && this.namespace.ttlFallback() == TtlFallback.REFUSE) {
			throw ttlRefused();
		}
	}

	private List<Place> places(List<Location> locations, List<EncodedValue> values) {
		List<Place> places = new ArrayList<>(locations.size());
		for (int i = 0; i < locations.size(); i++) {
			int fieldBytes = FieldValues.encodedLength(values.get(i));
			places.add(Place.of(locations.get(i), fieldBytes, this.limits.maxValueBytes()));
		}
		return places;
	}

	/**
	 * The values as arrays, for scripts, whose arguments Lettuce takes as arrays and may write again
	 * in a later attempt: the one place a write copies its values. The values stay the caller's.
	 */
	private static List<byte[]> copies(List<EncodedValue> values) {
		List<byte[]> copies = new ArrayList<>(values.size());
		for (EncodedValue value : values) {
			copies.add(value.toByteArray());
		}
		return copies;
	}

	/** Writes with one {@code SET} script call per bucket, pipelined; see {@link #write}. */
	private CompletableFuture<boolean[]> writeWithScripts(CallSteps steps, List<Location> locations,
			List<byte[]> values, List<Place> places, boolean nx, TtlMode ttlMode, long ttlMillis,
			byte @Nullable [] plainKeyGuard) {
		ScriptWrites scripts = scriptWrites(locations, values, places, nx, ttlMode, ttlMillis, plainKeyGuard);
		steps.send(scripts.pipeline(), scripts.replies());
		return written(scripts);
	}

	/** One {@code SET} script call per bucket, in a pipeline not sent yet. */
	private ScriptWrites scriptWrites(List<Location> locations, List<byte[]> values, List<Place> places, boolean nx,
			TtlMode ttlMode, long ttlMillis, byte @Nullable [] plainKeyGuard) {
		KeyGroups buckets = KeyGroups.byNumber(locations, (i) -> true, Location::bucketId);
		Pipeline<byte[], byte[]> pipeline = this.redis.pipeline();
		List<CompletableFuture<List<Object>>> replies = new ArrayList<>(buckets.count());
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			SetOptions options = new SetOptions(nx, entryLimit(locations.get(positions[0])), this.limits.fieldExpiry(),
					ttlMode, ttlMillis, this.bucketTtlMillis, plainKeyGuard);
			replies.add(BucketScripts.set(pipeline, options, buckets.select(bucket, locations),
					buckets.select(bucket, values), buckets.select(bucket, places)));
		}
		return new ScriptWrites(pipeline, replies, locations, places, buckets);
	}

	/** Per location whether the scripts of {@code scripts}, once sent, wrote it; see {@link #written(List, List, KeyGroups, List)}. */
	private CompletableFuture<boolean[]> written(ScriptWrites scripts) {
		int n = scripts.locations().size();
		return this.redis.all(scripts.replies(), () -> "write " + n + " keys of namespace '" + this.namespace.name() + "'")
			.thenApply((done) -> written(scripts.locations(), scripts.places(), scripts.buckets(), scripts.replies()));
	}

	/**
	 * Per location whether the scripts wrote it.
	 * @throws BucketFullException when a script refused its bucket because it is full
	 */
	private boolean[] written(List<Location> locations, List<Place> places, KeyGroups buckets,
			List<CompletableFuture<List<Object>>> replies) {
		boolean[] written = new boolean[locations.size()];
		List<String> refused = new ArrayList<>();
		for (int bucket = 0; bucket < buckets.count(); bucket++) {
			int[] positions = buckets.positions(bucket);
			List<Object> bucketReply = replies.get(bucket).join();
			Location first = locations.get(positions[0]);
			long count = BucketScripts.count(bucketReply);
			if (first.isHashed() && count >= 0) {
				this.fill.checked(first.hashedIndex(), count);
			}
			boolean[] reply = BucketScripts.written(bucketReply);
			for (int i = 0; i < positions.length; i++) {
				if (reply == null) {
					refused.add(locations.get(positions[i]).key());
				}
				else {
					written[positions[i]] = reply[i];
				}
			}
		}
		reportOverflowWrites(written, places);
		if (!refused.isEmpty()) {
			throw new BucketFullException("Namespace '" + this.namespace.name() + "': " + refused.size()
					+ " key(s) not written because their hashed bucket holds " + this.fill.limit()
					+ " fields already, the most a hashed bucket takes with hash-max-listpack-entries "
					+ this.limits.maxEntries() + ": " + refused.subList(0, Math.min(10, refused.size()))
					+ ". Give the namespace more buckets (bucketCount/expectedKeys) under a new alias and migrate.");
		}
		return written;
	}

	/**
	 * Whether a write can run without a script, see {@link BucketTransactions}: a lane is there, no
	 * NX, no bucket TTL, and a TTL only as the server allows. Hashed buckets go by script still
	 * unless their fill allows a counted write.
	 */
	private boolean canTransact(boolean nx, TtlMode ttlMode) {
		return this.transactions != null && !nx && this.bucketTtlMillis == 0 && this.transactions.supports(ttlMode);
	}

	/** The most fields the bucket of {@code location} may hold: the fill's limit for a hashed bucket, else none (0). */
	int entryLimit(Location location) {
		return location.isHashed() ? this.fill.limit() : 0;
	}

	/** What this namespace knows of its hashed buckets' counts. */
	BucketFill fill() {
		return this.fill;
	}

	/** Why a per-key TTL is refused: the server cannot expire fields and the namespace's {@link TtlFallback} is REFUSE. */
	UnsupportedOperationException ttlRefused() {
		return new UnsupportedOperationException("Namespace '" + this.namespace.name() + "' refuses per-key TTLs on "
				+ this.limits + ": the server cannot expire hash fields (HPEXPIRE needs Redis 7.4+). "
				+ "Use ttlFallback PLAIN_KEY, a bucket TTL, or a newer server.");
	}

	/** The TTL every write gives the bucket and its overflow keys, 0 for none. */
	long bucketTtlMillis() {
		return this.bucketTtlMillis;
	}

	private void reportOverflowWrites(boolean[] written, List<Place> places) {
		int overflowWrites = 0;
		for (int i = 0; i < written.length; i++) {
			if (written[i] && places.get(i) != Place.FIELD) {
				overflowWrites++;
			}
		}
		if (overflowWrites > 0) {
			this.observer.overflowWritten(this.namespace.name(), overflowWrites);
		}
	}

	/** Script calls built for a write's locations: the pipeline that sends them and what each bucket's reply means. */
	private record ScriptWrites(Pipeline<byte[], byte[]> pipeline, List<CompletableFuture<List<Object>>> replies,
			List<Location> locations, List<Place> places, KeyGroups buckets) {
	}

		/** Positions of a write's locations: those where a per-position flag has one value. */
	private record Positions(int[] positions) {

		static Positions where(boolean[] flags, boolean value) {
			int count = 0;
			for (boolean flag : flags) {
				count += (flag == value) ? 1 : 0;
			}
			int[] positions = new int[count];
			for (int i = 0, at = 0; i < flags.length; i++) {
				if (flags[i] == value) {
					positions[at++] = i;
				}
			}
			return new Positions(positions);
		}

		boolean isEmpty() {
			return this.positions.length == 0;
		}

		/** The items at these positions, in order; {@code items} itself when they are all of them. */
		<T> List<T> select(List<T> items) {
			if (this.positions.length == items.size()) {
				return items;
			}
			List<T> selected = new ArrayList<>(this.positions.length);
			for (int position : this.positions) {
				selected.add(items.get(position));
			}
			return selected;
		}

	}

}
