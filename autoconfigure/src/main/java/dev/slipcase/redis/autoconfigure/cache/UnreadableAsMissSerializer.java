package dev.slipcase.redis.autoconfigure.cache;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * A cache value serializer that reads a value it cannot decode (one JDK-serialized before the
 * switch to Slipcase, or in a type no longer allowed) as {@code null}, which Spring Data's
 * {@code RedisCache} reports as a miss, and logs a warning naming the cache and the reason; the
 * method then runs and its result replaces the entry. Writing is unchanged. Thread-safe.
 */
public final class UnreadableAsMissSerializer implements RedisSerializer<Object> {

	private static final Log logger = LogFactory.getLog(UnreadableAsMissSerializer.class);

	private final RedisSerializer<Object> delegate;

	private final String cacheName;

	/**
	 * Reads through {@code delegate}, naming {@code cacheName} in warnings.
	 * @param delegate the serializer values are written and read with
	 * @param cacheName the cache's name, or a description such as "every cache"
	 */
	public UnreadableAsMissSerializer(RedisSerializer<Object> delegate, String cacheName) {
		this.delegate = delegate;
		this.cacheName = cacheName;
	}

	@Override
	public byte @Nullable [] serialize(@Nullable Object value) throws SerializationException {
		return this.delegate.serialize(value);
	}

	@Override
	public @Nullable Object deserialize(byte @Nullable [] bytes) throws SerializationException {
		try {
			return this.delegate.deserialize(bytes);
		}
		catch (SerializationException ex) {
			logger.warn("Treating an unreadable entry of cache '" + this.cacheName + "' as a miss ("
					+ ((bytes != null) ? bytes.length : 0) + " bytes): " + ex.getMessage());
			return null;
		}
	}

	@Override
	public Class<?> getTargetType() {
		return this.delegate.getTargetType();
	}

}
