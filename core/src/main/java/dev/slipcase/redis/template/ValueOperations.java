package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.HeldReply;
import dev.slipcase.redis.lettuce.CommandSink;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.ObservesCommand;
import dev.slipcase.redis.lettuce.SlipcaseCommand;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * The operations of a {@link ValueTemplate}, each returning a {@code CompletableFuture}: each
 * builds one {@link SlipcaseCommand} per Redis command and hands it to a {@link CommandSink}, the
 * database's {@link dev.slipcase.redis.lettuce.CommandChannel} for {@link AsyncValueTemplate}, a
 * {@link dev.slipcase.redis.lettuce.Pipeline} for {@link ValueBatch}.
 * <p>
 * Values are serialized on the calling thread into pooled buffers owned by their command, which
 * releases them however it ends; a value that cannot be serialized fails the returned future with
 * a {@code SerializationException} and nothing is sent. Replies are decoded straight from Lettuce's
 * receive buffer; a reply that cannot be decoded fails that command only, naming the key and
 * format. On a cluster, multi-key operations are split by slot and the results reassembled in the
 * caller's order (such an {@code MSET} is atomic per slot only). A future completes successfully
 * only when Redis acknowledged the command; a write whose reply was lost with its connection fails
 * as unknown unless the template resends it ({@link UnacknowledgedWrites}).
 * <p>
 * Keys, values, field names and maps must not be {@code null} or contain {@code null}. Thread-safe
 * ({@link ValueBatch} aside, which one thread fills). Long because it is the template's whole
 * command vocabulary, one short method per Redis operation.
 *
 * @param <V> the type of values
 */
public abstract sealed class ValueOperations<V> permits AsyncValueTemplate, ValueBatch {

	/**
	 * {@code SET}'s {@code PX} option, spelled out: Lettuce 6 (Spring Boot 4.0) has no
	 * {@code CommandKeyword.PX}, and Slipcase runs on both.
	 */
	private static final String PX = "PX";

	final ValueFormat<V> format;

	final ByteBufAllocator allocator;

	final boolean cluster;

	/** Whether writes are {@linkplain UnacknowledgedWrites#RESEND written again} after a reconnect. */
	private final boolean resendsWrites;

	/** The near tier of {@link #get} and what forgets the keys writes change, or {@code null}. */
	final @Nullable NearValues<V> near;

	/** Where the commands go: written at once, or held for one write. */
	private final CommandSink<String, EncodedValue> sink;

	/** Where each command is observed; a no-op registry observes nothing. */
	private final ObservationRegistry observations;

	ValueOperations(CommandSink<String, EncodedValue> sink, boolean cluster, TemplateSettings<V> settings,
			@Nullable NearValues<V> near, ObservationRegistry observations) {
		this.sink = sink;
		this.cluster = cluster;
		this.format = settings.format();
		this.allocator = settings.allocator();
		this.resendsWrites = settings.unacknowledgedWrites() == UnacknowledgedWrites.RESEND;
		this.near = near;
		this.observations = observations;
	}

	/** Hands {@code command} to the sink, observed when the template is; returns it. */
	private <T> CompletableFuture<T> submit(SlipcaseCommand<String, EncodedValue, T> command) {
		return this.observations.isNoop() ? this.sink.submit(command)
				: ObservesCommand.submit(this.sink, command, this.observations, this.format.name());
	}

	/** An operation that failed before sending anything, such as a value that does not serialize. */
	<T> CompletableFuture<T> rejected(RuntimeException ex) {
		return CompletableFuture.failedFuture(ex);
	}

	/** The value at {@code key}, or {@code null} when there is none. */
	public CompletableFuture<@Nullable V> get(String key) {
		requireKey(key);
		if (this.near != null && readsThroughNear()) {
			return this.near.getAsync(key, () -> submit(
					command(CommandType.GET, new DecodedValueOutput<>(this.format, key, null), args().addKey(key))));
		}
		return submit(command(CommandType.GET, new DecodedValueOutput<>(this.format, key, null), args().addKey(key)));
	}

	/**
	 * Whether {@link #get} reads through the near tier: not in a batch, whose commands wait for
	 * {@code execute()}, so a shared fetch would hold up every other reader of its key until then.
	 */
	boolean readsThroughNear() {
		return true;
	}

	/**
	 * {@code command}, the keys it changes forgotten by the near tier now and before it completes,
	 * so that whoever waits for it reads its write.
	 */
	private <T> SlipcaseCommand<String, EncodedValue, T> changing(Collection<String> keys,
			SlipcaseCommand<String, EncodedValue, T> command) {
		return (this.near != null) ? command.with(this.near.forgetting(keys)) : command;
	}

	/** Sets {@code key} to {@code value}, without expiry. */
	public CompletableFuture<Void> set(String key, V value) {
		return setAcknowledged(key, value, null).thenApply((ok) -> null);
	}

	/** Sets {@code key} to {@code value}, expiring after {@code ttl}. */
	public CompletableFuture<Void> set(String key, V value, Duration ttl) {
		requireTtl(ttl);
		return setAcknowledged(key, value, ttl).thenApply((ok) -> null);
	}

	/**
	 * {@code SET} for the sync and reactive forms, without a dependent future: completes with
	 * Redis's {@code OK}, read by Lettuce's own status output.
	 */
	CompletableFuture<String> setAcknowledged(String key, V value, @Nullable Duration ttl) {
		if (ttl != null) {
			requireTtl(ttl);
		}
		return set(key, value, ttl, null, new StatusOutput<>(EncodedValueCodec.INSTANCE));
	}

	/**
	 * Sets {@code key} to {@code value} only when the key does not exist ({@code SET NX}).
	 * @param ttl the expiry, or {@code null} for none
	 * @return whether the value was set
	 */
	public CompletableFuture<Boolean> setIfAbsent(String key, V value, @Nullable Duration ttl) {
		if (ttl != null) {
			requireTtl(ttl);
		}
		return set(key, value, ttl, CommandKeyword.NX, new ConditionalSetOutput());
	}

	/**
	 * Sets {@code key} to {@code value} only when the key exists ({@code SET XX}).
	 * @param ttl the expiry, or {@code null} for none
	 * @return whether the value was set
	 */
	public CompletableFuture<Boolean> setIfPresent(String key, V value, @Nullable Duration ttl) {
		if (ttl != null) {
			requireTtl(ttl);
		}
		return set(key, value, ttl, CommandKeyword.XX, new ConditionalSetOutput());
	}

	private <T> CompletableFuture<T> set(String key, V value, @Nullable Duration ttl,
			@Nullable CommandKeyword condition, CommandOutput<String, EncodedValue, T> output) {
		requireKey(key);
		EncodedValue encoded;
		try {
			encoded = encode(key, null, value);
		}
		catch (SerializationException ex) {
			return rejected(ex);
		}
		CommandArgs<String, EncodedValue> args = args().addKey(key).addValue(encoded);
		if (ttl != null) {
			args.add(PX).add(ttl.toMillis());
		}
		if (condition != null) {
			args.add(condition);
		}
		return submit(changing(List.of(key), owning(CommandType.SET, output, args, encoded)));
	}

	/** The value at {@code key}, deleting it ({@code GETDEL}, Redis 6.2+), or {@code null}. */
	public CompletableFuture<@Nullable V> getAndDelete(String key) {
		requireKey(key);
		return submit(changing(List.of(key),
				command(CommandType.GETDEL, new DecodedValueOutput<>(this.format, key, null), args().addKey(key))));
	}

	/** The values at {@code keys}, in the same order, {@code null} where there is none. */
	public CompletableFuture<List<@Nullable V>> mget(Collection<String> keys) {
		List<String> ordered = requireKeys(keys);
		if (ordered.isEmpty()) {
			return CompletableFuture.completedFuture(List.of());
		}
		KeyGroups slots = slots(ordered);
		if (slots.count() == 1) {
			return mgetOneSlot(ordered);
		}
		List<CompletableFuture<List<@Nullable V>>> parts = new ArrayList<>(slots.count());
		for (int slot = 0; slot < slots.count(); slot++) {
			parts.add(mgetOneSlot(slots.select(slot, ordered)));
		}
		return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
			.thenApply((done) -> slots.reassemble(parts.stream().map(CompletableFuture::join).toList()));
	}

	private CompletableFuture<List<@Nullable V>> mgetOneSlot(List<String> keys) {
		return submit(command(CommandType.MGET, new DecodedListOutput<>(this.format, null, keys), args().addKeys(keys)));
	}

	/** Sets every key of {@code entries} to its value ({@code MSET}; on a cluster, one per slot). */
	public CompletableFuture<Void> mset(Map<String, ? extends V> entries) {
		Assert.notNull(entries, "entries must not be null");
		List<String> keys = requireKeys(entries.keySet());
		if (keys.isEmpty()) {
			return CompletableFuture.completedFuture(null);
		}
		List<EncodedValue> encoded = new ArrayList<>(keys.size());
		try {
			for (String key : keys) {
				encoded.add(encode(key, null, entries.get(key)));
			}
		}
		catch (RuntimeException ex) {
			encoded.forEach(EncodedValue::release);
			if (ex instanceof SerializationException) {
				return rejected(ex);
			}
			throw ex;
		}
		KeyGroups slots = slots(keys);
		List<CompletableFuture<String>> parts = new ArrayList<>(slots.count());
		for (int slot = 0; slot < slots.count(); slot++) {
			CommandArgs<String, EncodedValue> args = args();
			List<EncodedValue> values = new ArrayList<>(slots.positions(slot).length);
			List<String> slotKeys = new ArrayList<>(slots.positions(slot).length);
			for (int index : slots.positions(slot)) {
				args.addKey(keys.get(index)).addValue(encoded.get(index));
				values.add(encoded.get(index));
				slotKeys.add(keys.get(index));
			}
			parts.add(submit(changing(slotKeys,
					command(CommandType.MSET, new StatusOutput<>(EncodedValueCodec.INSTANCE), args).owning(values))));
		}
		return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new));
	}

	/** Deletes {@code keys}; the number of keys that existed. */
	public CompletableFuture<Long> delete(String... keys) {
		return delete(Arrays.asList(keys));
	}

	/** Deletes {@code keys}; the number of keys that existed. */
	public CompletableFuture<Long> delete(Collection<String> keys) {
		return countPerSlot(CommandType.DEL, keys);
	}

	/** How many of {@code keys} exist (a key named twice counts twice, as in Redis). */
	public CompletableFuture<Long> exists(String... keys) {
		return exists(Arrays.asList(keys));
	}

	/** How many of {@code keys} exist (a key named twice counts twice, as in Redis). */
	public CompletableFuture<Long> exists(Collection<String> keys) {
		return countPerSlot(CommandType.EXISTS, keys);
	}

	private CompletableFuture<Long> countPerSlot(CommandType type, Collection<String> keys) {
		List<String> ordered = requireKeys(keys);
		if (ordered.isEmpty()) {
			return CompletableFuture.completedFuture(0L);
		}
		KeyGroups slots = slots(ordered);
		CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
		for (int slot = 0; slot < slots.count(); slot++) {
			List<String> slotKeys = slots.select(slot, ordered);
			SlipcaseCommand<String, EncodedValue, Long> command = command(type,
					new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().addKeys(slotKeys));
			CompletableFuture<Long> part = submit((type == CommandType.DEL) ? changing(slotKeys, command) : command);
			total = total.thenCombine(part, Long::sum);
		}
		return total;
	}

	/** Makes {@code key} expire after {@code ttl}; whether the key exists. */
	public CompletableFuture<Boolean> expire(String key, Duration ttl) {
		requireKey(key);
		requireTtl(ttl);
		return submit(command(CommandType.PEXPIRE, new BooleanOutput<>(EncodedValueCodec.INSTANCE),
				args().addKey(key).add(ttl.toMillis())));
	}

	/** Adds {@code delta} to the integer at {@code key} ({@code INCRBY}); the new value. */
	public CompletableFuture<Long> incrementBy(String key, long delta) {
		requireKey(key);
		return submit(changing(List.of(key), command(CommandType.INCRBY,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().addKey(key).add(delta))));
	}

	/** The value of {@code field} in the hash at {@code key}, or {@code null}. */
	public CompletableFuture<@Nullable V> hget(String key, String field) {
		requireKey(key);
		requireField(field);
		return submit(command(CommandType.HGET, new DecodedValueOutput<>(this.format, key, field),
				args().addKey(key).add(field)));
	}

	/** Sets {@code field} of the hash at {@code key}; whether the field is new. */
	public CompletableFuture<Boolean> hset(String key, String field, V value) {
		requireField(field);
		Assert.notNull(value, "value must not be null");
		return hset(key, Map.of(field, value)).thenApply((added) -> added > 0);
	}

	/** Sets several fields of the hash at {@code key}; the number of new fields. */
	public CompletableFuture<Long> hset(String key, Map<String, ? extends V> fields) {
		requireKey(key);
		if (fields == null || fields.isEmpty()) {
			throw new IllegalArgumentException("fields must not be null or empty");
		}
		CommandArgs<String, EncodedValue> args = args().addKey(key);
		List<EncodedValue> encoded = new ArrayList<>(fields.size());
		try {
			for (Map.Entry<String, ? extends V> entry : fields.entrySet()) {
				requireField(entry.getKey());
				EncodedValue value = encode(key, entry.getKey(), entry.getValue());
				encoded.add(value);
				args.add(entry.getKey()).addValue(value);
			}
		}
		catch (RuntimeException ex) {
			encoded.forEach(EncodedValue::release);
			if (ex instanceof SerializationException) {
				return rejected(ex);
			}
			throw ex;
		}
		return submit(changing(List.of(key),
				command(CommandType.HSET, new IntegerOutput<>(EncodedValueCodec.INSTANCE), args).owning(encoded)));
	}

	/** The values of {@code fields} in the hash at {@code key}, in the same order, {@code null} where absent. */
	public CompletableFuture<List<@Nullable V>> hmget(String key, Collection<String> fields) {
		requireKey(key);
		if (fields == null || fields.isEmpty()) {
			throw new IllegalArgumentException("fields must not be null or empty");
		}
		List<String> names = new ArrayList<>(fields.size());
		CommandArgs<String, EncodedValue> args = args().addKey(key);
		for (String field : fields) {
			requireField(field);
			names.add(field);
			args.add(field);
		}
		return submit(command(CommandType.HMGET, new DecodedListOutput<>(this.format, key, names), args));
	}

	/**
	 * The raw bytes at {@code key} in a pooled buffer that the caller releases by closing the
	 * lease, or {@code null} when there is none. A lease whose future is cancelled or fails is
	 * released here, also when the reply arrives later.
	 */
	public CompletableFuture<@Nullable ValueLease> lease(String key) {
		requireKey(key);
		LeaseOutput output = new LeaseOutput(this.allocator, this.format.observer());
		return submit(command(CommandType.GET, output, args().addKey(key)));
	}

	/**
	 * {@code type key [field]} ({@code GET}, {@code GETDEL} or {@code HGET}) for a caller that
	 * blocks on the reply: a reply from {@code callerDecodeFrom} bytes is decoded by the caller in
	 * {@link AdaptiveValueOutput#value()}, a smaller one on the event loop. The caller takes the
	 * value or, when it stops waiting, {@linkplain AdaptiveValueOutput#abandon() abandons} it.
	 */
	CompletableFuture<AdaptiveValueOutput<V>> adaptive(CommandType type, String key, @Nullable String field,
			int callerDecodeFrom) {
		requireKey(key);
		CommandArgs<String, EncodedValue> args = args().addKey(key);
		if (field != null) {
			requireField(field);
			args.add(field);
		}
		return submit(command(type,
				new AdaptiveValueOutput<>(this.format, key, field, this.allocator, callerDecodeFrom), args));
	}

	/** Like {@link #lease(String)} for {@code GETRANGE key start end}. */
	CompletableFuture<@Nullable ValueLease> leaseRange(String key, long start, long end) {
		LeaseOutput output = new LeaseOutput(this.allocator, this.format.observer());
		return submit(command(CommandType.GETRANGE, output, args().addKey(key).add(start).add(end)));
	}

	/**
	 * {@code SET key bytes PX ttl}, or {@code APPEND key bytes} when {@code ttl} is {@code null}.
	 * Reference count ownership of {@code bytes} is transferred to this method: its command
	 * releases them when done.
	 */
	CompletableFuture<Long> writeRaw(String key, EncodedValue bytes, @Nullable Duration ttl) {
		if (ttl == null) {
			return submit(owning(CommandType.APPEND, new IntegerOutput<>(EncodedValueCodec.INSTANCE),
					args().addKey(key).addValue(bytes), bytes));
		}
		long size = bytes.size();
		CommandArgs<String, EncodedValue> args = args().addKey(key).addValue(bytes).add(PX)
			.add(ttl.toMillis());
		CompletableFuture<Boolean> set = submit(owning(CommandType.SET, new ConditionalSetOutput(), args, bytes));
		CompletableFuture<Long> length = set.thenApply((ok) -> size);
		// cancelling what the caller holds cancels the SET, as for the other commands
		length.whenComplete((ignored, failure) -> {
			if (length.isCancelled()) {
				set.cancel(false);
			}
		});
		return length;
	}

	/**
	 * Serializes the value of {@code key} (or of {@code field} of the hash at {@code key}) into a
	 * pooled buffer. The caller is responsible for releasing the returned value, normally by
	 * handing it to the command that sends it.
	 * @throws KeyedSerializationException naming the key when the format cannot write the value
	 */
	private EncodedValue encode(String key, @Nullable String field, @Nullable V value) {
		if (value == null) {
			throw new IllegalArgumentException("value of '" + ((field != null) ? key + " field " + field : key)
					+ "' must not be null");
		}
		try {
			return EncodedValue.encode(this.format, value, this.allocator);
		}
		catch (SerializationException ex) {
			throw KeyedSerializationException.of(key,
					(field != null) ? new SerializationException("field '" + field + "': " + ex.getMessage(), ex) : ex);
		}
	}

	/**
	 * The command {@code type}: a read, or a write sent at most once unless the template
	 * {@linkplain UnacknowledgedWrites#RESEND resends}; it owns the reply an output holds for the caller.
	 */
	private <T> SlipcaseCommand<String, EncodedValue, T> command(CommandType type,
			CommandOutput<String, EncodedValue, T> output, CommandArgs<String, EncodedValue> args) {
		return (this.resendsWrites || SlipcaseCommand.changesNothing(type)) ? SlipcaseCommand.read(type, output, args)
				: SlipcaseCommand.write(type, output, args);
	}

	/** A command that owns {@code value} and releases it when done. */
	private <T> SlipcaseCommand<String, EncodedValue, T> owning(CommandType type,
			CommandOutput<String, EncodedValue, T> output, CommandArgs<String, EncodedValue> args, EncodedValue value) {
		return command(type, output, args).owning(value);
	}

	private static CommandArgs<String, EncodedValue> args() {
		return new CommandArgs<>(EncodedValueCodec.INSTANCE);
	}

	/** One group per cluster slot on a cluster (a multi-key command must stay in one), else one group. */
	private KeyGroups slots(List<String> keys) {
		return this.cluster ? KeyGroups.bySlot(keys) : KeyGroups.all(keys.size());
	}

	static void requireKey(String key) {
		Assert.notNull(key, "key must not be null");
	}

	static void requireField(String field) {
		Assert.notNull(field, "field must not be null");
	}

	private static List<String> requireKeys(Collection<String> keys) {
		Assert.notNull(keys, "keys must not be null");
		List<String> ordered = new ArrayList<>(keys);
		if (ordered.contains(null)) {
			throw new IllegalArgumentException("keys must not contain null");
		}
		return ordered;
	}

	private static void requireTtl(Duration ttl) {
		if (ttl == null || ttl.isNegative() || ttl.isZero() || ttl.toMillis() == 0) {
			throw new IllegalArgumentException("ttl must be at least one millisecond, was " + ttl);
		}
	}

}
