package dev.slipcase.redis.serializer.jdk;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A serializer for a feature switching from JDK serialization to Slipcase: it reads a
 * JDK-serialized value (recognised by its stream header) through {@code jdk} while its
 * {@link SwitchOverPhase} still reads them, every other value through {@code current}, and writes
 * with the one the phase names. Each JDK-serialized value read is reported to
 * {@code jdkValueRead}, so that an operator sees when none is left. Thread-safe.
 */
public final class SwitchOverSerializer implements RedisSerializer<Object> {

	private final RedisSerializer<Object> current;

	private final RedisSerializer<Object> jdk;

	private final SwitchOverPhase phase;

	private final Runnable jdkValueRead;

	private SwitchOverSerializer(RedisSerializer<Object> current, RedisSerializer<Object> jdk, SwitchOverPhase phase,
			Runnable jdkValueRead) {
		this.current = current;
		this.jdk = jdk;
		this.phase = phase;
		this.jdkValueRead = jdkValueRead;
	}

	/**
	 * {@code current} alone when {@code phase} is {@link SwitchOverPhase#DONE}, else a serializer
	 * that reads both and writes as {@code phase} says.
	 * @param current Slipcase's serializer for the feature's values
	 * @param jdk reads (and in {@link SwitchOverPhase#WRITE_JDK} writes) JDK-serialized values,
	 * such as a {@code SlipcaseRedisSerializer} over a {@link JdkFormat}
	 * @param jdkValueRead called once for each JDK-serialized value read; must be fast and never throw
	 */
	public static RedisSerializer<Object> of(RedisSerializer<Object> current, RedisSerializer<Object> jdk,
			SwitchOverPhase phase, Runnable jdkValueRead) {
		Assert.notNull(current, "current must not be null");
		Assert.notNull(jdk, "jdk must not be null");
		Assert.notNull(phase, "phase must not be null");
		Assert.notNull(jdkValueRead, "jdkValueRead must not be null");
		return (phase == SwitchOverPhase.DONE) ? current : new SwitchOverSerializer(current, jdk, phase, jdkValueRead);
	}

	/** The phase this serializer is in. */
	public SwitchOverPhase phase() {
		return this.phase;
	}

	@Override
	public byte @Nullable [] serialize(@Nullable Object value) throws SerializationException {
		return this.phase.writesJdk() ? this.jdk.serialize(value) : this.current.serialize(value);
	}

	@Override
	public @Nullable Object deserialize(byte @Nullable [] bytes) throws SerializationException {
		if (bytes != null && JdkFormat.isJdkSerialized(bytes)) {
			Object value = this.jdk.deserialize(bytes);
			this.jdkValueRead.run();
			return value;
		}
		return this.current.deserialize(bytes);
	}

	/**
	 * {@code failure} to read {@code bytes}, said in words when they are a JDK-serialized value that
	 * a feature whose switch-over is done does not read: the format's own message about them
	 * ("Invalid UTF-8 start byte 0xac") names neither what they are nor what reads them.
	 * @param property the feature's switch-over property, such as {@code slipcase.redis.cache.switch-over}
	 */
	public static SerializationException explain(byte[] bytes, SerializationException failure, String property) {
		String message = String.valueOf(failure.getMessage());
		if (!JdkFormat.isJdkSerialized(bytes) || message.startsWith("jdk:")) {
			return failure;
		}
		return new SerializationException("a JDK-serialized value (written before Slipcase, or by an instance "
				+ "without it), which " + property + ": done does not read", failure);
	}

	@Override
	public Class<?> getTargetType() {
		return this.current.getTargetType();
	}

	@Override
	public String toString() {
		return "SwitchOverSerializer[" + this.phase + ": " + this.current + "]";
	}

}
