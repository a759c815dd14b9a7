package dev.slipcase.redis.autoconfigure.cache;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.jdk.SwitchOverSerializer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.ClassUtils;

/**
 * The value serializer of one Redis cache: writes and reads through {@code delegate}, refuses
 * values of other types than the cache's methods return, and names the Redis key in every error
 * (see {@link CacheKeyContext}).
 * <p>
 * An entry it cannot use (bytes it cannot decode, such as a JDK-serialized value from before the
 * switch to Slipcase or another app's value; a value of another type) is, when
 * {@code unusableAsMiss}, read as {@code null}, which Spring Data's {@code RedisCache} reports as
 * a miss: the method runs and its result replaces the entry. Each such entry is counted
 * ({@code SlipcaseObserver.cacheEntryUnreadable}); the first of each cache is logged at WARN with
 * its key and why, later ones at DEBUG. Thread-safe.
 */
public final class CacheValueSerializer implements RedisSerializer<Object> {

	private static final Log logger = LogFactory.getLog(CacheValueSerializer.class);

	private final String cacheName;

	private final RedisSerializer<Object> delegate;

	private final List<Class<?>> valueTypes;

	private final String stores;

	private final boolean unusableAsMiss;

	private final AtomicBoolean warned = new AtomicBoolean();

	private final SlipcaseObserver observer;

	/**
	 * A cache's serializer.
	 * @param cacheName the cache's name, for messages and the meter
	 * @param delegate writes and reads the values
	 * @param valueTypes the types of value the cache holds; empty for any type the delegate reads
	 * @param stores what the cache holds, for messages, such as
	 * {@code "Order (from OrderService.find(long))"}
	 * @param unusableAsMiss whether an entry it cannot use is a miss rather than an error
	 * @param observer where unusable entries are counted
	 */
	public CacheValueSerializer(String cacheName, RedisSerializer<Object> delegate, List<Class<?>> valueTypes,
			String stores, boolean unusableAsMiss, SlipcaseObserver observer) {
		this.observer = observer;
		this.cacheName = cacheName;
		this.delegate = delegate;
		this.valueTypes = valueTypes.stream().<Class<?>>map(ClassUtils::resolvePrimitiveIfNecessary).toList();
		this.stores = stores;
		this.unusableAsMiss = unusableAsMiss;
	}

	@Override
	public byte @Nullable [] serialize(@Nullable Object value) throws SerializationException {
		String key = CacheKeyContext.takeWritingKey();
		try {
			if (value != null && !isCachedType(value)) {
				throw new SerializationException("cache '" + this.cacheName + "' stores " + this.stores + ", not "
						+ value.getClass().getName());
			}
			return this.delegate.serialize(value);
		}
		catch (SerializationException ex) {
			throw (key != null) ? KeyedSerializationException.of(key, ex) : ex;
		}
	}

	@Override
	public @Nullable Object deserialize(byte @Nullable [] bytes) throws SerializationException {
		if (bytes == null) {
			return null;
		}
		CacheKeyContext.Reading fetched = CacheKeyContext.takeReading(bytes);
		if (fetched != null && fetched.decoded() != null) {
			return fetched.decoded();
		}
		Object value = read((fetched != null) ? fetched.key() : null, bytes);
		return (value == UNUSABLE) ? null : value;
	}

	/** A value {@link #read} could not use. */
	static final Object UNUSABLE = new Object();

	/**
	 * Reads {@code bytes} fetched from {@code key}.
	 * @return the value, {@code null} for an empty value, or {@link #UNUSABLE} (counted and
	 * logged) when it cannot be used and unusable entries are misses
	 * @throws SerializationException naming the key, when it cannot be used and unusable entries
	 * are errors
	 */
	@Nullable Object read(byte @Nullable [] key, byte[] bytes) {
		try {
			Object value = this.delegate.deserialize(bytes);
			if (value != null && !isCachedType(value)) {
				throw new SerializationException("cache '" + this.cacheName + "' stores " + this.stores
						+ ", but the entry holds a " + value.getClass().getName());
			}
			return value;
		}
		catch (SerializationException ex) {
			SerializationException explained = SwitchOverSerializer.explain(bytes, ex, "slipcase.redis.cache.switch-over");
			SerializationException failure = (key != null) ? KeyedSerializationException.of(key, explained) : explained;
			if (!this.unusableAsMiss) {
				throw failure;
			}
			this.observer.cacheEntryUnreadable(this.cacheName);
			if (this.warned.compareAndSet(false, true)) {
				logger.warn("Cache '" + this.cacheName + "' treats an entry it cannot use as a miss, and the method "
						+ "result replaces it (later ones are logged at DEBUG): " + failure.getMessage());
			}
			else if (logger.isDebugEnabled()) {
				logger.debug("Cache '" + this.cacheName + "' treats an entry it cannot use as a miss: "
						+ failure.getMessage());
			}
			return UNUSABLE;
		}
	}

	private boolean isCachedType(Object value) {
		if (this.valueTypes.isEmpty()) {
			return true;
		}
		for (Class<?> type : this.valueTypes) {
			if (type.isInstance(value)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * {@code Object}, so that Spring Data hands every value to {@link #serialize}, which refuses
	 * one of another type with a message naming the key.
	 */
	@Override
	public Class<?> getTargetType() {
		return Object.class;
	}

	@Override
	public String toString() {
		return "CacheValueSerializer[" + this.cacheName + ": " + this.stores + "]";
	}

}
