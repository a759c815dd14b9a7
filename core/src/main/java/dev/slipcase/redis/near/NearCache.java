package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A bounded local copy of values read from Redis, by Redis key, kept correct by Redis' own
 * invalidations ({@link NearCacheTracking}): the tier in front of a Redis-backed cache or template.
 * <p>
 * A value is served locally only while tracking is trusted ({@link #trackingTrusted()} and no
 * {@link #trackingLost()} since); otherwise every read goes to Redis and nothing is stored. A read
 * that misses fetches from Redis once for all concurrent readers of its key, and stores what it
 * fetched only when nothing happened to the key since the fetch began: no invalidation of it, no
 * other fetch of it completing, no flush or loss of tracking. When something did, it stores
 * nothing and drops what is held, since the fetch may have read a value older than one Redis has
 * since reported changed, or than one another reader already returned. So no reader is served a
 * value older than one this instance has already read of that key, and once Redis' invalidation of
 * a write has arrived, no read is served the value it replaced.
 * <p>
 * Keys are tracked in stripes (a key's stripe counts what happened to every key hashing to it):
 * two keys of one stripe only cost each other a store now and then. Values are held as they are
 * (decoded objects: the caller decides whether they are immutable or copied). Thread-safe; holds
 * no buffer.
 */
public final class NearCache {

	private final String name;

	private final Cache<String, Held> values;

	/** Per stripe: how many invalidations and completed fetches touched its keys. */
	private final AtomicLongArray stripes;

	private final int stripeMask;

	/** Concurrent readers of a key share one fetch. */
	private final ConcurrentHashMap<String, CompletableFuture<@Nullable Object>> fetches = new ConcurrentHashMap<>();

	/** Changes whenever everything held may be stale: a flush, tracking lost or trusted again, a clear. */
	private final AtomicLong epoch = new AtomicLong();

	private volatile boolean trusted;

	private final LongAdder hits = new LongAdder();

	private final LongAdder misses = new LongAdder();

	private final LongAdder invalidations = new LongAdder();

	private final LongAdder flushes = new LongAdder();

	private final LongAdder bypassed = new LongAdder();

	/**
	 * An empty tier, bypassed until tracking is trusted.
	 * @param name what it is the near tier of, for meters and messages
	 * @param maximumSize the most entries it holds; least recently used beyond
	 * @param maximumAge how long an entry is held at most after it was stored, or {@code null}
	 */
	public NearCache(String name, long maximumSize, @Nullable Duration maximumAge) {
		Assert.isTrue(maximumSize > 0, "maximumSize must be positive");
		this.name = name;
		Caffeine<Object, Object> builder = Caffeine.newBuilder().maximumSize(maximumSize).executor(Runnable::run);
		if (maximumAge != null) {
			builder.expireAfterWrite(maximumAge);
		}
		this.values = builder.build();
		int stripeCount = Integer.highestOneBit((int) Math.min(1 << 16, Math.max(1024, maximumSize * 4)));
		this.stripes = new AtomicLongArray(stripeCount);
		this.stripeMask = stripeCount - 1;
	}

	/** What it is the near tier of. */
	public String name() {
		return this.name;
	}

	/**
	 * The value held for {@code key}, or {@code null} when none is held or tracking is not trusted.
	 * Counts neither a hit nor a miss.
	 */
	public @Nullable Object peek(String key) {
		Held held = this.values.getIfPresent(key);
		if (held == null || !this.trusted) {
			return null;
		}
		if (held.epoch != this.epoch.get()) {
			this.values.asMap().remove(key, held); // stored by a fetch that raced a clear
			return null;
		}
		return held.value;
	}

	/**
	 * The value of {@code key}: the one held, or else what {@code fetch} reads from Redis, fetched
	 * once for every concurrent reader of the key and stored when nothing happened to the key
	 * meanwhile.
	 * @param key the Redis key
	 * @param fetch reads the value from Redis on the calling thread; {@code null} when absent
	 * @return the value, or {@code null} when Redis holds none
	 */
	public @Nullable Object get(String key, Supplier<@Nullable Object> fetch) {
		Object held = hit(key);
		if (held != null) {
			return held;
		}
		Ticket ticket = ticket(key);
		CompletableFuture<@Nullable Object> mine = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> shared = this.fetches.putIfAbsent(key, mine);
		if (shared != null) {
			return joined(shared);
		}
		try {
			Object value = fetch.get();
			fetched(key, ticket, value);
			mine.complete(value);
			return value;
		}
		catch (RuntimeException | Error ex) {
			mine.completeExceptionally(ex);
			throw ex;
		}
		finally {
			this.fetches.remove(key, mine);
		}
	}

	/**
	 * The value of {@code key}, as {@link #get(String, Supplier)} but without blocking: the one
	 * held, or else what {@code fetch} reads, fetched once for every concurrent reader.
	 * @param key the Redis key
	 * @param fetch starts reading the value from Redis; completes with {@code null} when absent
	 * @return the value, or {@code null} when Redis holds none; cancelling it gives up only this
	 * reader's interest
	 */
	public CompletableFuture<@Nullable Object> getAsync(String key,
			Supplier<CompletableFuture<@Nullable Object>> fetch) {
		Object held = hit(key);
		if (held != null) {
			return CompletableFuture.completedFuture(held);
		}
		Ticket ticket = ticket(key);
		CompletableFuture<@Nullable Object> mine = new CompletableFuture<>();
		CompletableFuture<@Nullable Object> shared = this.fetches.putIfAbsent(key, mine);
		if (shared != null) {
			return shared.copy();
		}
		CompletableFuture<@Nullable Object> started;
		try {
			started = fetch.get();
		}
		catch (RuntimeException | Error ex) {
			this.fetches.remove(key, mine);
			mine.completeExceptionally(ex);
			throw ex;
		}
		started.whenComplete((value, failure) -> {
			if (failure == null) {
				fetched(key, ticket, value);
				mine.complete(value);
			}
			else {
				mine.completeExceptionally(failure);
			}
			this.fetches.remove(key, mine);
		});
		return mine.copy();
	}

	private @Nullable Object hit(String key) {
		if (!this.trusted) {
			this.bypassed.increment();
			return null;
		}
		Object held = peek(key);
		if (held != null) {
			this.hits.increment();
		}
		else {
			this.misses.increment();
		}
		return held;
	}

	private Ticket ticket(String key) {
		long epoch = this.epoch.get();
		return new Ticket(epoch, this.trusted, this.stripes.get(stripe(key)));
	}

	/** Stores what a fetch read when nothing happened to its key since it began; else drops what is held. */
	private void fetched(String key, Ticket ticket, @Nullable Object value) {
		int stripe = stripe(key);
		this.values.asMap().compute(key, (k, held) -> {
			boolean quiet = ticket.trusted && this.trusted && ticket.epoch == this.epoch.get()
					&& this.stripes.get(stripe) == ticket.stripe;
			this.stripes.incrementAndGet(stripe);
			return (quiet && value != null) ? new Held(value, ticket.epoch) : null;
		});
	}

	private static @Nullable Object joined(CompletableFuture<@Nullable Object> shared) {
		try {
			return shared.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/** Forgets {@code key} because Redis reported it changed, and counts it: as {@link #forget(String)}. */
	public void invalidate(String key) {
		forget(key);
		this.invalidations.increment();
	}

	/**
	 * Forgets {@code key}: it changed, or this instance is writing it. A fetch of it under way
	 * stores nothing, and later readers fetch anew.
	 */
	public void forget(String key) {
		this.stripes.incrementAndGet(stripe(key));
		this.values.invalidate(key);
		this.fetches.remove(key);
	}

	/**
	 * Begins this instance's write of {@code key}, when what it writes may be stored once Redis
	 * acknowledged it: forgets the key, as {@link #forget(String)}, and remembers when.
	 * @param key the Redis key
	 * @return what {@link #written} needs
	 */
	public Write writing(String key) {
		forget(key);
		return new Write(key, ticket(key));
	}

	/**
	 * Redis acknowledged {@code write}: stores {@code value}, what a read of the key would now
	 * return, when nothing happened to the key since the write began (no invalidation, no other
	 * write, no fetch completed, no flush or loss of tracking), and forgets the key otherwise. Only
	 * for a write whose own invalidation Redis does not send here ({@code NOLOOP}): one that
	 * arrives meanwhile is another client's write, which may be later than this one. A fetch of
	 * the key under way is detached first, as an invalidation would detach it: it may have read the
	 * value this write replaced, and a reader who comes later, perhaps after being served this
	 * value, must fetch anew instead of joining it.
	 * @param write what {@link #writing} returned
	 * @param value the value written, as readers are handed it; {@code null}: nothing to store
	 */
	public void written(Write write, @Nullable Object value) {
		this.fetches.remove(write.key);
		fetched(write.key, write.ticket, value);
	}

	/** Forgets each of {@code keys}. */
	public void invalidateAll(Collection<String> keys) {
		for (String key : keys) {
			invalidate(key);
		}
	}

	/** Forgets everything: the database was flushed, or this instance cleared the cache. */
	public void clear() {
		this.epoch.incrementAndGet();
		this.values.invalidateAll();
		this.fetches.clear();
		this.flushes.increment();
	}

	/** Tracking is not trusted: forget everything, serve and store nothing until {@link #trackingTrusted()}. */
	public void trackingLost() {
		this.trusted = false;
		clear();
	}

	/** Tracking is trusted: serve and store again, from empty. */
	public void trackingTrusted() {
		this.epoch.incrementAndGet();
		this.trusted = true;
	}

	/** Whether values are served locally right now. */
	public boolean isTrusted() {
		return this.trusted;
	}

	/** How many entries it holds (an estimate while others write). */
	public long size() {
		return this.values.estimatedSize();
	}

	/** Reads served from the tier. */
	public long hits() {
		return this.hits.sum();
	}

	/** Reads that went to Redis while tracking was trusted. */
	public long misses() {
		return this.misses.sum();
	}

	/** Reads that went to Redis because tracking was not trusted. */
	public long bypassed() {
		return this.bypassed.sum();
	}

	/**
	 * Keys Redis reported changed: every client's writes, this instance's own included, except
	 * puts sent on a tracking connection, which Redis does not report back to it.
	 */
	public long invalidations() {
		return this.invalidations.sum();
	}

	/** Times everything was forgotten (flushes, clears, tracking lost). */
	public long flushes() {
		return this.flushes.sum();
	}

	private int stripe(String key) {
		int h = key.hashCode();
		return (h ^ (h >>> 16)) & this.stripeMask;
	}

	/** A write of this instance under way, begun by {@link #writing}. */
	public static final class Write {

		private final String key;

		private final Ticket ticket;

		private Write(String key, Ticket ticket) {
			this.key = key;
			this.ticket = ticket;
		}

	}

	/** What a fetch saw when it began. */
	private record Ticket(long epoch, boolean trusted, long stripe) {
	}

	/** A value and the epoch it was stored in. */
	private record Held(Object value, long epoch) {
	}

}
