package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.KeyGroups;
import dev.slipcase.redis.lettuce.LuaScript;
import io.lettuce.core.output.IntegerOutput;
import org.jspecify.annotations.Nullable;

/**
 * What the blocking and the reactive chunked transfers share: the temporary key a transfer
 * works in (same hash tag, hence the same cluster slot, as the key), how long it lives should
 * the process die half-way, the two scripts that make a transfer atomic for readers and how they
 * are sent, and the failure of a copy that changed while it was read.
 */
final class LargeValueKeys {

	/** How long a temporary key lives: longer than any transfer, short enough to clean up after a crash. */
	static final Duration TEMPORARY_TTL = Duration.ofHours(1);

	/** How long a download's copy lives once opened, until its content is read (then {@link #TEMPORARY_TTL}). */
	static final Duration OPENED_TTL = Duration.ofMinutes(1);

	/** KEYS: the temporary key, the key. Replaces the key with the temporary key, without expiry. */
	static final LuaScript REPLACE = LuaScript.of("redis.call('RENAME', KEYS[1], KEYS[2]) "
			+ "redis.call('PERSIST', KEYS[2]) return 1");

	/**
	 * KEYS: the key, the temporary key; ARGV: the temporary key's TTL in ms. Copies the key to the
	 * temporary key; returns its length, or -1 when there is no key.
	 */
	static final LuaScript SNAPSHOT = LuaScript.of("if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
			+ "redis.call('COPY', KEYS[1], KEYS[2], 'REPLACE') redis.call('PEXPIRE', KEYS[2], ARGV[1]) "
			+ "return redis.call('STRLEN', KEYS[2])");

	private LargeValueKeys() {
	}

	/**
	 * A new temporary key for a transfer of {@code key}, in its slot.
	 * @throws IllegalArgumentException on a cluster, for a key no temporary key of the same slot
	 * can be named for
	 */
	static String temporaryKey(String key, boolean cluster) {
		String tag = hashTag(key);
		String temporary = "{" + ((tag != null) ? tag : key) + "}:slipcase:tmp:" + UUID.randomUUID();
		if (cluster && !KeyGroups.sameSlot(temporary, key)) {
			throw new IllegalArgumentException("Key '" + key + "' cannot be transferred in chunks on a cluster: "
					+ "no temporary key of the same slot can be named for it; give it a hash tag such as {name}");
		}
		return temporary;
	}

	/** Sends {@link #SNAPSHOT}: copies {@code key} to {@code temporary}; its length, or -1 when there is no key. */
	static CompletableFuture<Long> snapshot(CommandChannel<String, EncodedValue> channel, String key, String temporary) {
		return snapshot(channel, key, temporary, TEMPORARY_TTL);
	}

	/** Like {@link #snapshot(CommandChannel, String, String)}, the copy living {@code ttl}. */
	static CompletableFuture<Long> snapshot(CommandChannel<String, EncodedValue> channel, String key, String temporary,
			Duration ttl) {
		return channel.sendScript(SNAPSHOT, LargeValueKeys::integer, List.of(key, temporary),
				(argv) -> argv.add(ttl.toMillis()));
	}

	/** Sends {@link #REPLACE}: {@code temporary} becomes {@code key}, without expiry. */
	static CompletableFuture<Long> replace(CommandChannel<String, EncodedValue> channel, String key, String temporary) {
		return channel.sendScript(REPLACE, LargeValueKeys::integer, List.of(temporary, key), (argv) -> {
		});
	}

	/** The failure of a download whose temporary copy changed under it. */
	static IllegalStateException changed(String key, String temporary) {
		return new IllegalStateException("Temporary copy '" + temporary + "' of '" + key + "' changed while it was read");
	}

	private static IntegerOutput<String, EncodedValue> integer() {
		return new IntegerOutput<>(EncodedValueCodec.INSTANCE);
	}

	private static @Nullable String hashTag(String key) {
		int start = key.indexOf('{');
		if (start < 0) {
			return null;
		}
		int end = key.indexOf('}', start + 1);
		return (end > start + 1) ? key.substring(start + 1, end) : null;
	}

}
