package dev.slipcase.redis.template;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.ConnectionHolder.Connector;
import dev.slipcase.redis.lettuce.ConnectionHolder;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.protocol.CommandType;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * A typed Redis template on Lettuce with no intermediate {@code byte[]}: {@code String} keys,
 * values of type {@code V} in one {@link ValueFormat}. Values are serialized on the caller's
 * thread into pooled buffers that Lettuce copies into its outbound buffer (so a value that does
 * not serialize fails its own call, never the shared connection), and decoded straight from
 * Lettuce's receive buffer.
 * <pre class="code">
 * ValueTemplate&lt;Order&gt; orders = ValueTemplate.create(connectionFactory, orderFormat);
 * orders.set("order:42", order, Duration.ofMinutes(10));
 * Order read = orders.get("order:42");
 * CompletableFuture&lt;List&lt;Order&gt;&gt; many = orders.async().mget(List.of("order:1", "order:2"));
 * try (ValueLease lease = orders.lease("report:7")) { ... }
 * </pre>
 * Built from Spring's {@link LettuceConnectionFactory} (its native client, so SSL, auth, database,
 * Sentinel and Cluster come from the application's configuration), or from a plain
 * {@link RedisClient} or {@link RedisClusterClient}. Each database gets one shared, multiplexed
 * connection, opened on first use without blocking callers ({@link #forDatabase(int)}); on a
 * cluster, multi-key operations are split by slot and reassembled in the caller's order.
 * <p>
 * The sync methods wait up to the command timeout of the client configuration, then cancel the
 * command. They throw {@code SerializationException} for values that cannot be written or read,
 * otherwise Spring's {@code DataAccessException}s, as Spring Data Redis translates Lettuce's
 * failures: {@code RedisSystemException} for an error reply, {@code QueryTimeoutException} for a
 * command that timed out (and was cancelled), {@code RedisConnectionFailureException} for a lost
 * connection. The futures of {@link #async()} and {@link #batch()} fail with Lettuce's own
 * exceptions, unchanged. Instances are immutable and thread-safe. The
 * template owns the connections it opened (closed by {@link #close()}, which every view shares),
 * never the client.
 * <p>
 * Longer than most classes because it is the sync API, one documented method per operation, each
 * a line or two over {@link AsyncValueTemplate}.
 *
 * @param <V> the type of values
 */
public final class ValueTemplate<V> implements AutoCloseable {

	private final CommandChannel<String, EncodedValue> channel;

	private final TemplateSettings<V> settings;

	private final AsyncValueTemplate<V> async;

	private final LargeValueTransfer largeValues;

	private ValueTemplate(CommandChannel<String, EncodedValue> channel, TemplateSettings<V> settings) {
		this.channel = channel.forDatabase(settings.database());
		this.settings = settings;
		this.async = new AsyncValueTemplate<>(this.channel, settings);
		this.largeValues = new LargeValueTransfer(this.async, settings.chunkSize());
	}

	/**
	 * A template on the native Lettuce client of Spring's connection factory (which must be
	 * started), in the factory's database. Not for static master/replica configurations.
	 * @param factory the connection factory, never {@code null}
	 * @param format the value format, never {@code null}
	 */
	public static <V> ValueTemplate<V> create(LettuceConnectionFactory factory, ValueFormat<V> format) {
		Assert.notNull(factory, "factory must not be null");
		requireFormat(format);
		AbstractRedisClient client = factory.getRequiredNativeClient();
		if (!(client instanceof RedisClusterClient) && !(client instanceof RedisClient)) {
			throw new IllegalArgumentException("Unsupported native client " + client.getClass().getName());
		}
		boolean cluster = client instanceof RedisClusterClient;
		int defaultDatabase = cluster ? 0 : factory.getDatabase();
		// Each connection comes from the factory's client of the moment: stopping the factory shuts its
		// client down and starting it makes a new one, and the holder then opens a new connection in
		// place of the one closed with the old client. The client's own RedisURI (SSL, auth, Sentinel,
		// database) has no public getter: connect with it.
		return create(Connectors.following(factory::getRequiredNativeClient, EncodedValueCodec.INSTANCE, defaultDatabase),
				cluster, defaultDatabase, factory.getClientConfiguration().getCommandTimeout(), format);
	}

	/**
	 * A template on a standalone or Sentinel-managed Redis, in the database of {@code uri}.
	 * @param client the client, never {@code null}; the caller shuts it down
	 * @param uri where to connect, never {@code null}
	 * @param format the value format, never {@code null}
	 */
	public static <V> ValueTemplate<V> create(RedisClient client, RedisURI uri, ValueFormat<V> format) {
		Assert.notNull(client, "client must not be null");
		Assert.notNull(uri, "uri must not be null");
		requireFormat(format);
		return create(Connectors.of(client, uri, EncodedValueCodec.INSTANCE), false, uri.getDatabase(), uri.getTimeout(),
				format);
	}

	/**
	 * A template on a Redis Cluster (database 0 only).
	 * @param client the client, never {@code null}; the caller shuts it down
	 * @param format the value format, never {@code null}
	 */
	public static <V> ValueTemplate<V> create(RedisClusterClient client, ValueFormat<V> format) {
		Assert.notNull(client, "client must not be null");
		requireFormat(format);
		return create(Connectors.of(client, EncodedValueCodec.INSTANCE), true, 0, RedisURI.DEFAULT_TIMEOUT_DURATION,
				format);
	}

	private static <V> ValueTemplate<V> create(Connector<String, EncodedValue> connector, boolean cluster,
			int defaultDatabase, Duration timeout, ValueFormat<V> format) {
		ConnectionHolder<String, EncodedValue> connections = ConnectionHolder.opening(connector,
				EncodedValueCodec.INSTANCE, cluster, defaultDatabase, timeout);
		return new ValueTemplate<>(new CommandChannel<>(connections, defaultDatabase, timeout),
				TemplateSettings.of(defaultDatabase, format));
	}

	/**
	 * A view of this template on another database, sharing its connections: one per database,
	 * opened on first use. A standalone or Sentinel server only.
	 * @throws IllegalArgumentException when {@code database} is negative, or not 0 on a cluster
	 */
	public ValueTemplate<V> forDatabase(int database) {
		if (database < 0) {
			throw new IllegalArgumentException("database must not be negative, was " + database);
		}
		if (this.channel.isCluster() && database != 0) {
			throw new IllegalArgumentException("A Redis Cluster has only database 0, not " + database);
		}
		return new ValueTemplate<>(this.channel, this.settings.withDatabase(database));
	}

	/** A view of this template for values of another format, sharing its connections. */
	public <T> ValueTemplate<T> withFormat(ValueFormat<T> format) {
		requireFormat(format);
		return new ValueTemplate<>(this.channel, this.settings.withFormat(format));
	}

	/** A view of this template that takes its buffers from {@code allocator}. */
	public ValueTemplate<V> withAllocator(ByteBufAllocator allocator) {
		Assert.notNull(allocator, "allocator must not be null");
		return new ValueTemplate<>(this.channel, this.settings.withAllocator(allocator));
	}

	/**
	 * A view of this template whose sync {@link #get}, {@link #getAndDelete} and {@link #hget}
	 * decode every value on the calling thread: the reply is copied into a pooled buffer (no
	 * {@code byte[]}) and parsed by the caller. Same as {@code withCallerThreadDecodingFrom(0)}.
	 */
	public ValueTemplate<V> withCallerThreadDecoding() {
		return withCallerThreadDecodingFrom(0);
	}

	/**
	 * A view of this template whose sync {@link #get}, {@link #getAndDelete} and {@link #hget}
	 * decode a value of at least {@code bytes} stored bytes on the calling thread, from a pooled
	 * copy of the reply (no {@code byte[]}), and a smaller one in place on the connection's event
	 * loop (no copy). The event loop is one thread per connection: left to parse large values for
	 * every thread, it is the bottleneck. The default is
	 * {@value TemplateSettings#DEFAULT_CALLER_DECODE_FROM} bytes; {@code 0} decodes every value on
	 * the caller's thread, {@link Integer#MAX_VALUE} none. The async API always decodes on the
	 * event loop.
	 */
	public ValueTemplate<V> withCallerThreadDecodingFrom(int bytes) {
		if (bytes < 0) {
			throw new IllegalArgumentException("bytes must not be negative, was " + bytes);
		}
		return new ValueTemplate<>(this.channel, this.settings.withCallerDecodeFrom(bytes));
	}

	/**
	 * A view of this template whose commands are observed in {@code registry}: one
	 * {@code slipcase.redis.command} observation per command (sync and async; not the commands of
	 * a {@link ValueBatch}), tagged with the command, the format and the outcome, with the bytes
	 * stored or read as a high-cardinality tag. It is current while the command is dispatched, so
	 * that Lettuce's own command observation nests under it. See
	 * {@link SlipcaseObservationDocumentation#COMMAND}.
	 */
	public ValueTemplate<V> withObservationRegistry(ObservationRegistry registry) {
		Assert.notNull(registry, "registry must not be null");
		return new ValueTemplate<>(this.channel, this.settings.withObservations(registry));
	}

	/**
	 * A view of this template whose writes whose reply was lost with their connection are
	 * {@linkplain UnacknowledgedWrites#RESEND written again} after the reconnect (Lettuce's
	 * at-least-once) or {@linkplain UnacknowledgedWrites#FAIL fail} as unknown, the default.
	 */
	public ValueTemplate<V> withUnacknowledgedWrites(UnacknowledgedWrites unacknowledgedWrites) {
		Assert.notNull(unacknowledgedWrites, "unacknowledgedWrites must not be null");
		return new ValueTemplate<>(this.channel, this.settings.withUnacknowledgedWrites(unacknowledgedWrites));
	}

	/**
	 * A view of this template whose reads of a key ({@link #get}, and {@code get} of its
	 * {@link #async()} and {@link #reactive()} forms) go through {@code near}: served from the JVM
	 * while Redis' invalidations are trusted, fetched once for all concurrent readers of the key
	 * otherwise; and whose writes forget the keys they change, before they are sent and once they
	 * completed. {@code near} must be kept correct by a {@link dev.slipcase.redis.near.NearCacheTracking}
	 * on the keys' prefix (the starter does it for {@code slipcase.redis.template.near.*}). Only for
	 * this view's database and format: {@link #forDatabase} to another database and
	 * {@link #withFormat} drop it. A value no reader can change (records of strings, numbers and
	 * {@code java.time} values, {@code List.of}...) is held as it is; any other is held encoded and
	 * decoded for each read. Leases, hash reads and batches' reads go to Redis.
	 */
	public ValueTemplate<V> withNearCache(NearCache near) {
		Assert.notNull(near, "near must not be null");
		return new ValueTemplate<>(this.channel, this.settings.withNear(near));
	}

	/**
	 * The same template moving large values in chunks of {@code chunkSize} bytes: each
	 * {@code upload} command writes one chunk ({@code APPEND}), each {@code download} command reads
	 * one ({@code GETRANGE}); 256 KiB by default. Larger chunks mean fewer commands and round trips,
	 * smaller ones less memory per transfer (a reactive transfer holds up to its window of them)
	 * and shorter pauses for the other commands on the connection.
	 */
	public ValueTemplate<V> withChunkSize(int chunkSize) {
		if (chunkSize < 1) {
			throw new IllegalArgumentException("chunkSize must be at least 1, was " + chunkSize);
		}
		return new ValueTemplate<>(this.channel, this.settings.withChunkSize(chunkSize));
	}

	/**
	 * The same template whose reactive transfers hold at most {@code chunks} chunks each: a
	 * {@code download} has at most that many chunks read from Redis and not yet released by its
	 * subscriber (however much the subscriber requests), an {@code upload} at most that many
	 * {@code APPEND}s in flight; 8 by default. Also how many chunk commands are pipelined.
	 */
	public ValueTemplate<V> withTransferWindow(int chunks) {
		if (chunks < 1) {
			throw new IllegalArgumentException("chunks must be at least 1, was " + chunks);
		}
		return new ValueTemplate<>(this.channel, this.settings.withTransferWindow(chunks));
	}

	/** The settings of this view, for tests. */
	TemplateSettings<V> settings() {
		return this.settings;
	}

	/** The {@code CompletableFuture} form of this template. */
	public AsyncValueTemplate<V> async() {
		return this.async;
	}

	/**
	 * The Reactor form of this template: the same database, format and connections, each
	 * operation a {@code Mono}, for callers that must not block. Made on each call (a few small
	 * objects), so that a template used only blocking makes none.
	 */
	public ReactiveValueTemplate<V> reactive() {
		return new ReactiveValueTemplate<>(this.async, this.settings.chunkSize(), this.settings.transferWindow());
	}

	/** A new, empty batch: commands collected and written in one go by {@link ValueBatch#execute()}. */
	public ValueBatch<V> batch() {
		return this.async.batch();
	}

	/** The database this template's commands go to. */
	public int database() {
		return this.async.database();
	}

	/** The value at {@code key}, or {@code null}. */
	public @Nullable V get(String key) {
		NearValues<V> near = this.async.near;
		if (near != null) {
			ValueOperations.requireKey(key);
			return near.get(key, () -> read(CommandType.GET, key, null, "get"));
		}
		return read(CommandType.GET, key, null, "get");
	}

	/** Sets {@code key} to {@code value}, without expiry. */
	public void set(String key, V value) {
		await(this.async.setAcknowledged(key, value, null), "set", key);
	}

	/** Sets {@code key} to {@code value}, expiring after {@code ttl}. */
	public void set(String key, V value, Duration ttl) {
		Assert.notNull(ttl, "ttl must not be null");
		await(this.async.setAcknowledged(key, value, ttl), "set", key);
	}

	/** Sets {@code key} only when it does not exist; whether it was set. {@code ttl} may be {@code null}. */
	public boolean setIfAbsent(String key, V value, @Nullable Duration ttl) {
		return await(this.async.setIfAbsent(key, value, ttl), "set", key);
	}

	/** Sets {@code key} only when it exists; whether it was set. {@code ttl} may be {@code null}. */
	public boolean setIfPresent(String key, V value, @Nullable Duration ttl) {
		return await(this.async.setIfPresent(key, value, ttl), "set", key);
	}

	/** The value at {@code key}, deleting it, or {@code null} (Redis 6.2+). */
	public @Nullable V getAndDelete(String key) {
		NearValues<V> near = this.async.near;
		if (near == null) {
			return read(CommandType.GETDEL, key, null, "get and delete");
		}
		near.forget(key);
		try {
			return read(CommandType.GETDEL, key, null, "get and delete");
		}
		finally {
			near.forget(key);
		}
	}

	/** The values at {@code keys}, in the same order, {@code null} where there is none. */
	public List<@Nullable V> mget(Collection<String> keys) {
		return await(this.async.mget(keys), "get", keys);
	}

	/** Sets every key of {@code entries} (on a cluster, atomically per slot only). */
	public void mset(Map<String, ? extends V> entries) {
		await(this.async.mset(entries), "set", entries.keySet());
	}

	/** Deletes {@code keys}; how many existed. */
	public long delete(String... keys) {
		return await(this.async.delete(keys), "delete", Arrays.asList(keys));
	}

	/** Deletes {@code keys}; how many existed. */
	public long delete(Collection<String> keys) {
		return await(this.async.delete(keys), "delete", keys);
	}

	/** How many of {@code keys} exist. */
	public long exists(String... keys) {
		return await(this.async.exists(keys), "look up", Arrays.asList(keys));
	}

	/** How many of {@code keys} exist. */
	public long exists(Collection<String> keys) {
		return await(this.async.exists(keys), "look up", keys);
	}

	/** Makes {@code key} expire after {@code ttl}; whether the key exists. */
	public boolean expire(String key, Duration ttl) {
		return await(this.async.expire(key, ttl), "expire", key);
	}

	/** Adds {@code delta} to the integer at {@code key}; the new value. */
	public long incrementBy(String key, long delta) {
		return await(this.async.incrementBy(key, delta), "increment", key);
	}

	/** The value of {@code field} in the hash at {@code key}, or {@code null}. */
	public @Nullable V hget(String key, String field) {
		Assert.notNull(field, "field must not be null");
		return read(CommandType.HGET, key, field, "get a field of");
	}

	/** Sets {@code field} of the hash at {@code key}; whether the field is new. */
	public boolean hset(String key, String field, V value) {
		return await(this.async.hset(key, field, value), "set a field of", key);
	}

	/** Sets several fields of the hash at {@code key}; the number of new fields. */
	public long hset(String key, Map<String, ? extends V> fields) {
		return await(this.async.hset(key, fields), "set fields of", key);
	}

	/** The values of {@code fields} in the hash at {@code key}, in the same order, {@code null} where absent. */
	public List<@Nullable V> hmget(String key, Collection<String> fields) {
		return await(this.async.hmget(key, fields), "get fields of", key);
	}

	/**
	 * The raw bytes at {@code key} in a pooled buffer, or {@code null} when there is none. The
	 * caller is responsible for closing the returned lease, which releases the buffer.
	 */
	public @Nullable ValueLease lease(String key) {
		return await(this.async.lease(key), "lease", key);
	}

	/**
	 * Stores exactly {@code length} bytes of {@code in} at {@code key}, in chunks, with heap use
	 * bounded by the chunk size. Readers see the old value until the whole new one is in place;
	 * when the upload fails (the stream throws or ends early, Redis fails) the old value is left as
	 * it was. The stream is read, not closed. The value has no expiry.
	 * @throws java.io.EOFException when the stream ends before {@code length} bytes
	 */
	public void upload(String key, InputStream in, long length) throws IOException {
		ValueOperations.requireKey(key);
		Assert.notNull(in, "in must not be null");
		if (length < 0) {
			throw new IllegalArgumentException("length must not be negative, was " + length);
		}
		NearValues<V> near = this.async.near;
		if (near == null) {
			this.largeValues.upload(key, in, length);
			return;
		}
		near.forget(key);
		try {
			this.largeValues.upload(key, in, length);
		}
		finally {
			near.forget(key);
		}
	}

	/**
	 * Writes the value at {@code key} to {@code out}, in chunks, with heap use bounded by the
	 * chunk size; a consistent copy is read even while another caller uploads a new value. The
	 * stream is written, not closed.
	 * @return the number of bytes written, or {@code -1} when there is no such key
	 */
	public long download(String key, OutputStream out) throws IOException {
		ValueOperations.requireKey(key);
		Assert.notNull(out, "out must not be null");
		return this.largeValues.download(key, out);
	}

	/** Closes every connection this template and its views opened; the client is left alone. */
	@Override
	public void close() {
		this.channel.connections().close();
	}

	/**
	 * {@code type key [field]}, the reply decoded on the event loop or, from the threshold, here.
	 * When the wait fails (a time-out, an interrupt) after the reply arrived, its copy is released.
	 */
	private @Nullable V read(CommandType type, String key, @Nullable String field, String action) {
		CompletableFuture<AdaptiveValueOutput<V>> reply = this.async.adaptive(type, key, field,
				this.settings.callerDecodeFrom());
		AdaptiveValueOutput<V> output;
		try {
			output = await(reply, action, key);
		}
		catch (RuntimeException ex) {
			if (reply.isDone() && !reply.isCompletedExceptionally()) {
				reply.join().abandon();
			}
			throw ex;
		}
		return output.value();
	}

	private <T> T await(CompletableFuture<T> future, String action, @Nullable Object key) {
		return this.channel.await(future, action, key);
	}

	private static void requireFormat(ValueFormat<?> format) {
		Assert.notNull(format, "format must not be null");
	}

}
