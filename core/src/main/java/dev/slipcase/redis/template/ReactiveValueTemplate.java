package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.util.Assert;

/**
 * The Reactor form of a {@link ValueTemplate}, for WebFlux handlers and other callers that must
 * not block: the same formats, connections (and write coalescing), TTLs and errors, each
 * operation a {@link Mono}. Obtain one with {@link ValueTemplate#reactive()}; it shares the
 * template's connections, which {@link ValueTemplate#close()} closes.
 * <pre class="code">
 * ReactiveValueTemplate&lt;Order&gt; orders = valueTemplates.forType(Order.class).reactive();
 * Mono&lt;Order&gt; order = orders.get("order:42");                 // empty when there is none
 * Mono&lt;Void&gt; saved = orders.set("order:42", order, Duration.ofMinutes(10));
 * </pre>
 * Nothing is sent until a returned {@code Mono}'s value is asked for (subscribed to and requested,
 * which {@code block()} and {@code subscribe()} do at once), and each subscription sends the
 * command again; the command timeout counts from the sending. A value is serialized into a pooled buffer on the subscribing thread, owned
 * by its command, which releases it however the command ends; replies are decoded on the
 * connection's event loop, where the {@code Mono} then emits (as Lettuce's own reactive API does:
 * hop with {@code publishOn} before blocking work). Cancelling a subscription cancels the command
 * (one not yet written is never written); when no reply comes within the command timeout the
 * command is cancelled and the {@code Mono} fails with a {@code QueryTimeoutException}. Failures
 * are the sync template's: a {@code SerializationException} naming the key and format for a value
 * that cannot be written or read, Spring's {@code DataAccessException}s otherwise. A {@code Mono}
 * completes successfully only when Redis acknowledged the command. Invalid arguments (a
 * {@code null} key, an empty collection where one is required) throw at once, as Spring's
 * {@code ReactiveRedisTemplate} does. Immutable and thread-safe.
 *
 * @param <V> the type of values
 */
public final class ReactiveValueTemplate<V> {

	private final AsyncValueTemplate<V> async;

	private final CommandChannel<String, EncodedValue> channel;

	private final ReactiveLargeValueTransfer largeValues;

	ReactiveValueTemplate(AsyncValueTemplate<V> async, int chunkSize, int transferWindow) {
		this.async = async;
		this.channel = async.channel();
		this.largeValues = new ReactiveLargeValueTransfer(async, chunkSize, transferWindow);
	}

	/** The database this template's commands go to. */
	public int database() {
		return this.async.database();
	}

	/** The value at {@code key}; empty when there is none. */
	public Mono<V> get(String key) {
		ValueOperations.requireKey(key);
		return mono(() -> this.async.get(key), "get", key);
	}

	/** Sets {@code key} to {@code value}, without expiry. */
	public Mono<Void> set(String key, V value) {
		requireValue(key, value);
		return mono(() -> this.async.setAcknowledged(key, value, null), "set", key).then();
	}

	/** Sets {@code key} to {@code value}, expiring after {@code ttl}. */
	public Mono<Void> set(String key, V value, Duration ttl) {
		requireValue(key, value);
		Assert.notNull(ttl, "ttl must not be null");
		return mono(() -> this.async.setAcknowledged(key, value, ttl), "set", key).then();
	}

	/**
	 * Sets {@code key} to {@code value} only when the key does not exist ({@code SET NX}).
	 * @param ttl the expiry, or {@code null} for none
	 * @return whether the value was set
	 */
	public Mono<Boolean> setIfAbsent(String key, V value, @Nullable Duration ttl) {
		requireValue(key, value);
		return mono(() -> this.async.setIfAbsent(key, value, ttl), "setIfAbsent", key);
	}

	/**
	 * Sets {@code key} to {@code value} only when the key exists ({@code SET XX}).
	 * @param ttl the expiry, or {@code null} to remove any
	 * @return whether the value was set
	 */
	public Mono<Boolean> setIfPresent(String key, V value, @Nullable Duration ttl) {
		requireValue(key, value);
		return mono(() -> this.async.setIfPresent(key, value, ttl), "setIfPresent", key);
	}

	/** The value at {@code key}, which is then deleted ({@code GETDEL}); empty when there is none. */
	public Mono<V> getAndDelete(String key) {
		ValueOperations.requireKey(key);
		return mono(() -> this.async.getAndDelete(key), "getAndDelete", key);
	}

	/**
	 * The values at {@code keys}, in the same order, {@code null} where a key has none (a list,
	 * since a {@code Flux} cannot hold {@code null}, as Spring's {@code multiGet} does).
	 */
	public Mono<List<@Nullable V>> mget(Collection<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		keys.forEach(ValueOperations::requireKey);
		return mono(() -> this.async.mget(keys), "mget", keys);
	}

	/** Sets every entry, without expiry ({@code MSET}; on a cluster, atomic per slot only). */
	public Mono<Void> mset(Map<String, ? extends V> entries) {
		Assert.notEmpty(entries, "entries must not be null or empty");
		entries.forEach(this::requireValue);
		return mono(() -> this.async.mset(entries), "mset", entries.keySet());
	}

	/** Deletes {@code keys}; the number of keys that existed. */
	public Mono<Long> delete(String... keys) {
		Assert.notNull(keys, "keys must not be null");
		return delete(Arrays.asList(keys));
	}

	/** Deletes {@code keys}; the number of keys that existed. */
	public Mono<Long> delete(Collection<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		keys.forEach(ValueOperations::requireKey);
		return mono(() -> this.async.delete(keys), "delete", keys);
	}

	/** How many of {@code keys} exist (a key named twice counts twice). */
	public Mono<Long> exists(Collection<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		keys.forEach(ValueOperations::requireKey);
		return mono(() -> this.async.exists(keys), "exists", keys);
	}

	/** Makes {@code key} expire after {@code ttl}; whether the key exists. */
	public Mono<Boolean> expire(String key, Duration ttl) {
		ValueOperations.requireKey(key);
		Assert.notNull(ttl, "ttl must not be null");
		return mono(() -> this.async.expire(key, ttl), "expire", key);
	}

	/** Adds {@code delta} to the integer at {@code key} ({@code INCRBY}); the new value. */
	public Mono<Long> incrementBy(String key, long delta) {
		ValueOperations.requireKey(key);
		return mono(() -> this.async.incrementBy(key, delta), "incrementBy", key);
	}

	/** The value of {@code field} in the hash at {@code key}; empty when there is none. */
	public Mono<V> hget(String key, String field) {
		ValueOperations.requireKey(key);
		ValueOperations.requireField(field);
		return mono(() -> this.async.hget(key, field), "hget", key);
	}

	/** Sets several fields of the hash at {@code key}; the number of new fields. */
	public Mono<Long> hset(String key, Map<String, ? extends V> fields) {
		ValueOperations.requireKey(key);
		Assert.notEmpty(fields, "fields must not be null or empty");
		fields.forEach((field, value) -> {
			ValueOperations.requireField(field);
			Assert.notNull(value, "value must not be null");
		});
		return mono(() -> this.async.hset(key, fields), "hset", key);
	}

	/** The values of {@code fields} in the hash at {@code key}, in the same order, {@code null} where absent. */
	public Mono<List<@Nullable V>> hmget(String key, Collection<String> fields) {
		ValueOperations.requireKey(key);
		Assert.notEmpty(fields, "fields must not be null or empty");
		fields.forEach(ValueOperations::requireField);
		return mono(() -> this.async.hmget(key, fields), "hmget", key);
	}

	/**
	 * The raw bytes at {@code key} in a pooled buffer that the subscriber releases by closing the
	 * lease; empty when there is none. A lease that arrives after the subscription was cancelled,
	 * or that Reactor discards, is closed here.
	 */
	public Mono<ValueLease> lease(String key) {
		ValueOperations.requireKey(key);
		return mono(() -> this.async.lease(key), "lease", key).doOnDiscard(ValueLease.class, ValueLease::close);
	}

	/**
	 * The raw bytes at {@code key}, streamed in chunks as the subscriber asks for them: each chunk
	 * the pooled buffer its reply was copied into, which the subscriber releases (WebFlux does once
	 * it has written it to the socket); empty when there is no such key. The chunks come from one
	 * consistent copy, even while another caller uploads a new value. At most the template's
	 * window of chunks ({@link ValueTemplate#withTransferWindow}, 8 by default) is read from Redis
	 * and not yet released, whatever the subscriber requests: a client that stops reading stops the
	 * download, with that many chunks held. A subscriber that holds more chunks than that before
	 * releasing any (collecting the whole value) waits for itself: read a whole value with
	 * {@link #lease}. Cancelling, or failing, releases any chunk not yet handed over and deletes
	 * the copy. {@link #openDownload} gives the length first.
	 */
	public Flux<DataBuffer> download(String key) {
		ValueOperations.requireKey(key);
		return this.largeValues.download(key);
	}

	/**
	 * Opens a download in one round trip (a consistent copy of the value is made): the value's
	 * length and its content, streamed as {@link #download} streams it once subscribed to; empty
	 * when there is no such key. For a controller that answers a missing key with 404 and a present
	 * one with its {@code Content-Length}:
	 * <pre class="code">
	 * return files.openDownload(key)
	 *     .map((download) -&gt; ResponseEntity.ok().contentLength(download.length()).body(download.content()))
	 *     .defaultIfEmpty(ResponseEntity.notFound().build());
	 * </pre>
	 * Cancelled or failed before the {@link Download} is handed on, the copy is deleted; once handed
	 * on, reading its content or {@link Download#discard()} deletes it.
	 */
	public Mono<Download> openDownload(String key) {
		ValueOperations.requireKey(key);
		return this.largeValues.open(key);
	}

	/**
	 * Stores the bytes {@code content} streams at {@code key}, without expiry: the incoming buffers
	 * are gathered into chunks of the template's chunk size ({@link ValueTemplate#withChunkSize}),
	 * each written by one {@code APPEND} once full, up to the template's window of them pipelined,
	 * so the commands sent are the value's size over the chunk size, plus one, however the bytes
	 * arrive. Readers see the old value until the whole new one is in place; when the upload fails
	 * (the stream errors, Redis fails) or is cancelled, the old value is left as it was. Takes
	 * ownership of every buffer {@code content} emits: each is released once copied (or discarded).
	 */
	public Mono<Void> upload(String key, Publisher<? extends DataBuffer> content) {
		ValueOperations.requireKey(key);
		Assert.notNull(content, "content must not be null");
		NearValues<V> near = this.async.near;
		if (near == null) {
			return this.largeValues.upload(key, content);
		}
		// forgotten before the upload starts, and before its end reaches the subscriber
		return Mono.defer(() -> {
			near.forget(key);
			return this.largeValues.upload(key, content);
		}).doOnTerminate(() -> near.forget(key)).doOnCancel(() -> near.forget(key));
	}

	private <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, String action, Object key) {
		return this.channel.mono(send, action, key);
	}

	private void requireValue(String key, V value) {
		ValueOperations.requireKey(key);
		Assert.notNull(value, "value must not be null");
	}

}
