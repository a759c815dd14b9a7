package dev.slipcase.redis.autoconfigure.session;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import dev.slipcase.redis.serializer.jdk.JdkFormat;
import dev.slipcase.redis.serializer.jdk.SwitchOverSerializer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.session.MapSession;

/**
 * Spring Session's {@code springSessionDefaultRedisSerializer}: writes each session value (the
 * session's times and every attribute) through {@code delegate}, and reads a value it cannot
 * decode (a session written with JDK serialization before the switch, or corrupt bytes) as
 * {@link #UNREADABLE} instead of failing the request; {@link #sessionMapper} then treats a session
 * holding one as absent, so the user gets a new session rather than an error page. The first
 * unreadable value is logged at WARN, later ones at DEBUG. Thread-safe.
 */
public final class SessionValueSerializer implements RedisSerializer<Object> {

	/** What an unreadable session value reads as; never written. */
	public static final Object UNREADABLE = new Object() {

		@Override
		public String toString() {
			return "an unreadable session value";
		}

	};

	private static final Log logger = LogFactory.getLog(SessionValueSerializer.class);

	private final RedisSerializer<Object> delegate;

	private final AtomicBoolean warned = new AtomicBoolean();

	/**
	 * A serializer writing and reading through {@code delegate}.
	 * @param delegate the session values' serializer
	 */
	public SessionValueSerializer(RedisSerializer<Object> delegate) {
		this.delegate = delegate;
	}

	@Override
	public byte @Nullable [] serialize(@Nullable Object value) throws SerializationException {
		return this.delegate.serialize(value);
	}

	@Override
	public @Nullable Object deserialize(byte @Nullable [] bytes) throws SerializationException {
		if (bytes != null && JdkFormat.isJdkSerialized(bytes)) {
			JdkSessionReads.read();
		}
		try {
			return this.delegate.deserialize(bytes);
		}
		catch (SerializationException ex) {
			String message = "A session value could not be read, and its session is treated as absent: "
					+ ((bytes != null) ? SwitchOverSerializer.explain(bytes, ex, "slipcase.redis.session.switch-over") : ex)
						.getMessage();
			if (this.warned.compareAndSet(false, true)) {
				logger.warn(message + " (later ones are logged at DEBUG)");
			}
			else if (logger.isDebugEnabled()) {
				logger.debug(message);
			}
			return UNREADABLE;
		}
	}

	@Override
	public Class<?> getTargetType() {
		return Object.class;
	}

	/**
	 * {@code mapper}, answering {@code null} (no session: the repository deletes it) for a session
	 * with a value this serializer could not read.
	 */
	public static BiFunction<String, Map<String, Object>, @Nullable MapSession> sessionMapper(
			BiFunction<String, Map<String, Object>, MapSession> mapper) {
		return (id, values) -> values.containsValue(UNREADABLE) ? null : mapper.apply(id, values);
	}

}
