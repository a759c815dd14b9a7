package dev.slipcase.redis.serializer;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * A {@link SerializationException} that names the Redis key whose value could not be written or
 * read: {@code "key 'orders::41': json: cannot decode value: ..."}. Every path that knows the key
 * (the cache, {@code RedisTemplate}s Slipcase configures, {@code ValueTemplate}, the sharded
 * template) reports failures through {@link #of}, so messages read alike; keys longer than
 * {@value #MAX_KEY_LENGTH} characters are cut, and unprintable characters are escaped.
 */
public final class KeyedSerializationException extends SerializationException {

	/** The longest key, in characters, a message quotes in full. */
	public static final int MAX_KEY_LENGTH = 200;

	private final String key;

	private KeyedSerializationException(String key, String message, @Nullable Throwable cause) {
		super("key '" + key + "': " + message, cause);
		this.key = key;
	}

	/**
	 * {@code failure} with {@code key} named in its message; a failure that already names a key
	 * is returned as it is (the innermost path that knew the key named it).
	 * @param key the key as text or bytes ({@code byte[]} is read as UTF-8), never {@code null}
	 * @param failure the failure, never {@code null}
	 */
	public static SerializationException of(Object key, SerializationException failure) {
		if (failure instanceof KeyedSerializationException) {
			return failure;
		}
		String message = (failure.getMessage() != null) ? failure.getMessage() : failure.getClass().getSimpleName();
		Throwable cause = (failure.getClass() == SerializationException.class && failure.getCause() != null)
				? failure.getCause() : failure;
		KeyedSerializationException keyed = new KeyedSerializationException(describe(key), message, cause);
		keyed.setStackTrace(failure.getStackTrace());
		return keyed;
	}

	/** A new failure about the value of {@code key}. */
	public static SerializationException of(Object key, String message) {
		return new KeyedSerializationException(describe(key), message, null);
	}

	/** The key as quoted in the message: printable, at most {@value #MAX_KEY_LENGTH} characters. */
	public String key() {
		return this.key;
	}

	/** {@code key} as a message quotes it. */
	public static String describe(Object key) {
		String text = (key instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(key);
		StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_KEY_LENGTH) + 8);
		int i = 0;
		for (; i < text.length() && out.length() < MAX_KEY_LENGTH; i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f || c == '\uFFFD') {
				out.append(String.format("\\x%02x", (int) c & 0xff));
			}
			else {
				out.append(c);
			}
		}
		if (i < text.length()) {
			out.append("...(").append(text.length()).append(" chars)");
		}
		return out.toString();
	}

}
