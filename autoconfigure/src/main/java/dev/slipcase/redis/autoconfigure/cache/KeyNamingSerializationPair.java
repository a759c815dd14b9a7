package dev.slipcase.redis.autoconfigure.cache;

import java.nio.ByteBuffer;

import org.springframework.data.redis.serializer.RedisElementReader;
import org.springframework.data.redis.serializer.RedisElementWriter;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * A cache's key serialization that also records each key it writes in {@link CacheKeyContext},
 * so that the value serializer can name the key a value failed for. Keys are written exactly as
 * {@code delegate} writes them. Thread-safe.
 */
final class KeyNamingSerializationPair implements SerializationPair<String> {

	private final SerializationPair<String> delegate;

	private final RedisElementWriter<String> writer;

	KeyNamingSerializationPair(SerializationPair<String> delegate) {
		this.delegate = delegate;
		this.writer = (key) -> {
			CacheKeyContext.keySerialized(key);
			return delegate.getWriter().write(key);
		};
	}

	/** {@code pair}, naming keys, unless it already does. */
	static SerializationPair<String> of(SerializationPair<String> pair) {
		return (pair instanceof KeyNamingSerializationPair) ? pair : new KeyNamingSerializationPair(pair);
	}

	@Override
	public RedisElementReader<String> getReader() {
		return this.delegate.getReader();
	}

	@Override
	public RedisElementWriter<String> getWriter() {
		return this.writer;
	}

	@Override
	public ByteBuffer write(String element) {
		return this.writer.write(element);
	}

}
