package dev.slipcase.redis.autoconfigure;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.jdk.JdkAllowlist;
import dev.slipcase.redis.serializer.jdk.JdkFormat;
import dev.slipcase.redis.serializer.jdk.JdkLimits;
import dev.slipcase.redis.serializer.jdk.SwitchOverPhase;
import dev.slipcase.redis.serializer.jdk.SwitchOverSerializer;

import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Makes the serializers of features switching over from JDK serialization, from
 * {@code slipcase.redis.jdk.*}: each reads JDK-serialized values through an allowlist seeded with
 * the JDK's value types, the family's allowed types and {@code allowed-classes}, which the feature
 * extends with the types it declares, and counts each one read ({@link #jdkReads}, and the
 * observer's {@code jdkValueRead}).
 */
public final class SwitchOverSerializers {

	private final SlipcaseSerializerFamily family;

	private final SlipcaseRedisProperties.Jdk properties;

	private final JdkLimits limits;

	private final ClassLoader classLoader;

	private final Map<String, LongAdder> jdkReads = new ConcurrentHashMap<>();

	SwitchOverSerializers(SlipcaseSerializerFamily family, SlipcaseRedisProperties.Jdk properties,
			ClassLoader classLoader) {
		this.family = family;
		this.properties = properties;
		this.classLoader = classLoader;
		this.limits = limits(properties);
	}

	private static JdkLimits limits(SlipcaseRedisProperties.Jdk properties) {
		int maxBytes = Settings.toInt(properties.getMaxSize().toBytes(), "slipcase.redis.jdk.max-size");
		try {
			return new JdkLimits(properties.getMaxDepth(), properties.getMaxReferences(), maxBytes);
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException("slipcase.redis.jdk", ex.getMessage(),
					"Set slipcase.redis.jdk.max-depth, max-references and max-size to positive values.", ex);
		}
	}

	/**
	 * An allowlist holding the JDK's value types, the family's allowed types and
	 * {@code slipcase.redis.jdk.allowed-classes}, for the caller to add the types it declares.
	 */
	public JdkAllowlist.Builder allowlist() {
		JdkAllowlist.Builder allowlist = JdkAllowlist.builder().allowJdkValueTypes();
		this.family.allowlist().types().values().forEach((type) -> allowlist.allowDeclared(type.getRawClass()));
		this.properties.getAllowedClasses().forEach(allowlist::allow);
		return allowlist;
	}

	/**
	 * {@code current} while {@code phase} is done, else a serializer reading JDK values that
	 * {@code allowlist} allows too, and writing as the phase says.
	 * @param allowlist what JDK values may hold, built only when the phase reads them
	 * @param feature {@code cache}, {@code session} or {@code redis-template}, for the meter
	 * @param name the cache's name, or the feature's, for the meter
	 */
	public RedisSerializer<Object> of(RedisSerializer<Object> current, Supplier<JdkAllowlist> allowlist,
			SwitchOverPhase phase, String feature, String name) {
		if (phase == SwitchOverPhase.DONE) {
			return current;
		}
		RedisSerializer<Object> jdk = jdk(allowlist.get());
		LongAdder reads = this.jdkReads.computeIfAbsent(feature + "/" + name, (key) -> new LongAdder());
		return SwitchOverSerializer.of(current, jdk, phase, () -> {
			reads.increment();
			this.family.observer().jdkValueRead(feature, name);
		});
	}

	/**
	 * JDK serialization alone, reading only what {@code allowlist} allows, within
	 * {@code slipcase.redis.jdk.*}: what Spring Data's {@code JdkSerializationRedisSerializer}
	 * writes, read safely.
	 */
	public RedisSerializer<Object> jdk(JdkAllowlist allowlist) {
		return SlipcaseRedisSerializer.of(JdkFormat.of(allowlist, this.limits, this.classLoader), Object.class,
				this.family.allocator());
	}

	/**
	 * How many JDK-serialized values each serializer still switching over has read, by
	 * {@code <feature>/<name>} ({@code cache/orders}, {@code session/session}), sorted.
	 */
	public Map<String, Long> jdkReads() {
		Map<String, Long> reads = new TreeMap<>();
		this.jdkReads.forEach((key, count) -> reads.put(key, count.sum()));
		return reads;
	}

}
