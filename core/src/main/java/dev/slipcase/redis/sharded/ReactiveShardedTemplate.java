package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.slipcase.redis.sharded.BucketScripts.TtlMode;
import dev.slipcase.redis.sharded.KeyPlacement.Location;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.util.Assert;

/**
 * The Reactor form of a {@link ShardedTemplate}, for WebFlux handlers and other callers that must
 * not block: the same operations over the same namespace, each a {@link Mono}. Obtain one with
 * {@link ShardedTemplate#reactive()}.
 * <pre class="code">
 * ReactiveShardedTemplate&lt;Long&gt; views = shardedTemplates.template(namespace, Long.class).reactive();
 * Mono&lt;Long&gt; count = views.incrBy("views:" + pageId, 1);
 * </pre>
 * <b>One set of commands.</b> Both forms run the same calls of the namespace's byte store, whose
 * commands go out in turns without blocking a thread between them (a call's next turn is sent
 * from the event loop that delivered the replies of the one before): the blocking template waits
 * for a call, this one subscribes to it. So the guarantees are the blocking template's, on the
 * same code: no bucket ever leaves its compact encoding, an increment is sent at most once (one
 * whose reply was lost with its connection fails with an
 * {@link dev.slipcase.redis.lettuce.UnacknowledgedWriteException} and is never applied twice),
 * and a {@code Mono} completes only when Redis acknowledged every write of its call.
 * <p>
 * Nothing is sent until a returned {@code Mono}'s value is asked for, and each subscription runs
 * the call again. Values are serialized on the subscribing thread and read on the event loop that
 * delivered the reply, where the {@code Mono} then emits ({@code publishOn} before blocking work).
 * Cancelling a subscription, or the command timeout passing (a {@code QueryTimeoutException}),
 * gives the call up: its commands not yet written are never written and no later turn is sent,
 * so a call whose subscriber was told it failed or who left writes nothing afterwards (a turn
 * already written may still be applied, as with any Redis command). Failures are the blocking
 * template's: a {@code SerializationException} naming the key, {@link BucketFullException},
 * Spring's {@code DataAccessException}s otherwise. Invalid arguments throw at once. Not observed
 * (the blocking template's observations are not reported here). Immutable and thread-safe.
 *
 * @param <V> the value type
 */
public final class ReactiveShardedTemplate<V> {

	private final ShardedTemplate<V> template;

	private final BucketStore store;

	ReactiveShardedTemplate(ShardedTemplate<V> template, BucketStore store) {
		this.template = template;
		this.store = store;
	}

	/** The namespace this template serves. */
	public ShardedNamespace namespace() {
		return this.store.namespace();
	}

	/** The value of {@code key}; empty when there is none. */
	public Mono<V> get(String key) {
		Location location = this.store.locate(key);
		return call(() -> this.store.get(location), this.store.callNames().get(), key)
			.map((bytes) -> this.template.deserialize(bytes, key));
	}

	/** Stores {@code value} under {@code key}, removing any TTL the key had, like {@code SET}. */
	public Mono<Void> set(String key, V value) {
		return write(key, value, TtlMode.CLEAR, null);
	}

	/**
	 * Stores {@code value} under {@code key} with a TTL; fails with
	 * {@code UnsupportedOperationException} where the blocking template throws it.
	 */
	public Mono<Void> set(String key, V value, Duration ttl) {
		return write(key, value, TtlMode.SET, ShardedTemplate.checkTtl(ttl));
	}

	/** Stores {@code value} under {@code key}, keeping the key's current TTL. */
	public Mono<Void> setKeepTtl(String key, V value) {
		return write(key, value, TtlMode.KEEP, null);
	}

	/** Stores {@code value} only when {@code key} has no value; emits whether it was stored. */
	public Mono<Boolean> setIfAbsent(String key, V value) {
		Location location = this.store.locate(key);
		ShardedTemplate.requireValue(key, value);
		return call(() -> this.store.setIfAbsent(location, this.template.encode(value, key)),
				this.store.callNames().setIfAbsent(), key);
	}

	/** Removes {@code key}; emits whether it existed. */
	public Mono<Boolean> delete(String key) {
		this.store.locate(key);
		return call(() -> this.store.delete(key), this.store.callNames().delete(), key);
	}

	/** Whether {@code key} has a value. */
	public Mono<Boolean> exists(String key) {
		Location location = this.store.locate(key);
		return call(() -> this.store.get(location), this.store.callNames().lookUp(), key).hasElement();
	}

	/**
	 * Adds {@code delta} to the decimal integer stored under {@code key}; emits the new value. Atomic
	 * and sent at most once, see {@link ShardedTemplate#incrBy}.
	 */
	public Mono<Long> incrBy(String key, long delta) {
		this.store.locate(key);
		return call(() -> this.store.increment(key, Long.toString(delta), false), this.store.callNames().increment(), key)
			.map(Long::parseLong);
	}

	/** Subtracts {@code delta}; see {@link #incrBy(String, long)}. */
	public Mono<Long> decrBy(String key, long delta) {
		if (delta == Long.MIN_VALUE) {
			throw new IllegalArgumentException("delta must be greater than Long.MIN_VALUE");
		}
		return incrBy(key, -delta);
	}

	/** Adds {@code delta} to the decimal number stored under {@code key}; emits the new value. */
	public Mono<Double> incrByFloat(String key, double delta) {
		if (!Double.isFinite(delta)) {
			throw new IllegalArgumentException("delta must be finite, was " + delta);
		}
		this.store.locate(key);
		return call(() -> this.store.increment(key, Double.toString(delta), true), this.store.callNames().increment(), key)
			.map(Double::parseDouble);
	}

	/** The remaining TTL of {@code key} in milliseconds, as {@link ShardedTemplate#ttlMillis} gives it. */
	public Mono<Long> ttlMillis(String key) {
		this.store.locate(key);
		return call(() -> this.store.ttlMillis(key), this.store.callNames().readTtl(), key);
	}

	/** Sets a TTL on an existing key; emits {@code false} when the key does not exist. */
	public Mono<Boolean> expire(String key, Duration ttl) {
		this.store.locate(key);
		Duration checked = ShardedTemplate.checkTtl(ttl);
		return call(() -> this.store.expire(key, checked), this.store.callNames().expire(), key);
	}

	/** Removes the TTL of {@code key}; emits whether it had one. */
	public Mono<Boolean> persist(String key) {
		this.store.locate(key);
		return call(() -> this.store.persist(key), this.store.callNames().persist(), key);
	}

	/**
	 * The values of {@code keys}, in the same order, {@code null} where a key has none (as Spring's
	 * {@code ReactiveValueOperations.multiGet} emits them); the commands of
	 * {@link ShardedTemplate#multiGet}.
	 */
	public Mono<List<@Nullable V>> multiGet(List<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		List<Location> locations = new ArrayList<>(keys.size());
		keys.forEach((key) -> locations.add(this.store.locate(key)));
		return call(() -> this.store.getAll(locations), this.store.callNames().getMany(), null)
			.map((raw) -> this.template.deserializeAll(keys, raw, (bytes) -> {
			}));
	}

	/** Stores every entry, removing TTLs; the commands of {@link ShardedTemplate#multiSet}. */
	public Mono<Void> multiSet(Map<String, ? extends V> values) {
		Assert.notNull(values, "values must not be null");
		List<Location> locations = new ArrayList<>(values.size());
		values.forEach((key, value) -> {
			locations.add(this.store.locate(key));
			ShardedTemplate.requireValue(key, value);
		});
		// the reactive calls are not observed: no sizes to count
		return call(() -> this.store.write(locations, this.template.encodeAll(values, (bytes) -> { }), false,
				TtlMode.CLEAR, null), this.store.callNames().setMany(), null).then();
	}

	private Mono<Void> write(String key, V value, TtlMode ttlMode, @Nullable Duration ttl) {
		Location location = this.store.locate(key);
		ShardedTemplate.requireValue(key, value);
		return call(() -> this.store.write(List.of(location), List.of(this.template.encode(value, key)), false,
				ttlMode, ttl), this.store.callNames().set(), key).then();
	}

	/** The outcome of the store call {@code start} starts when first asked for, see {@link ShardedTemplate}. */
	private <T> Mono<T> call(Supplier<CompletableFuture<T>> start, String action, @Nullable String key) {
		return this.store.redis().mono(start, action, key);
	}

}
