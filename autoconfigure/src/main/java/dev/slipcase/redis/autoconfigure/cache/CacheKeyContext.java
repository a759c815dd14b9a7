package dev.slipcase.redis.autoconfigure.cache;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Which Redis key the cache's value serializer on this thread is writing or reading, so that its
 * errors and warnings can name it: Spring Data's {@code RedisCache} serializes a key and then its
 * value on the same thread, and reads a value right after its cache writer fetched it, but never
 * hands the key to the value serializer.
 * <ul>
 * <li>Writing: the cache's key serializer ({@link KeyNamingSerializationPair}) records the key;
 * the value serializer takes it; every call to the cache writer ({@link SlipcaseCacheWriter})
 * forgets it, so a key whose operation needed no value is never named for another.</li>
 * <li>Reading: the cache writer records the key with the bytes it fetched; the value serializer
 * takes it only when it is given those same bytes.</li>
 * </ul>
 */
final class CacheKeyContext {

	private static final ThreadLocal<String> writing = new ThreadLocal<>();

	private static final ThreadLocal<Reading> reading = new ThreadLocal<>();

	private CacheKeyContext() {
	}

	static void keySerialized(String key) {
		writing.set(key);
	}

	static @Nullable String takeWritingKey() {
		String key = writing.get();
		if (key != null) {
			writing.remove();
		}
		return key;
	}

	static void forgetWritingKey() {
		writing.remove();
	}

	/** The writer fetched {@code value} from {@code key}; {@code decoded} is what it already read, or {@code null}. */
	static void valueFetched(byte[] key, byte @Nullable [] value, @Nullable Object decoded) {
		if (value == null) {
			reading.remove();
		}
		else {
			reading.set(new Reading(key, value, decoded));
		}
	}

	/** What the writer recorded about fetching {@code value}, or {@code null} when it did not fetch these bytes. */
	static @Nullable Reading takeReading(byte[] value) {
		Reading last = reading.get();
		if (last == null) {
			return null;
		}
		reading.remove();
		return Arrays.equals(last.value, value) ? last : null;
	}

	/**
	 * A value the cache writer fetched.
	 * @param key the key it was fetched from
	 * @param value its bytes
	 * @param decoded the value already decoded from them, or {@code null}
	 */
	record Reading(byte[] key, byte[] value, @Nullable Object decoded) {
	}

}
