package dev.slipcase.redis.autoconfigure.cache;

import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.slipcase.redis.autoconfigure.CachedMethods;
import dev.slipcase.redis.autoconfigure.CachedMethods.CachedMethod;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.autoconfigure.SwitchOverSerializers;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.jdk.JdkAllowlist;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Makes each cache's {@link CacheValueSerializer}: typed by the values its methods cache
 * ({@link CachedMethods}), in the format and compression {@code slipcase.redis.cache.caches.<name>.*}
 * choose, else as the family routes each type. Fails, naming the method, the type and the
 * property that fixes it, for a cache whose values could not be read back.
 */
public final class CacheValueSerializers {

	private final SlipcaseSerializerFamily family;

	private final SlipcaseRedisProperties.Cache properties;

	private final Map<String, CacheValueSerializer> byCache = new LinkedHashMap<>();

	private final CacheValueSerializer defaults;

	private final SwitchOverSerializers switchOver;

	/**
	 * The serializers of every cache that a method fills or that the properties configure.
	 * @param family the serializers
	 * @param properties {@code slipcase.redis.cache.*}
	 * @param methods the methods that fill each cache, by cache name
	 * @param switchOver reads JDK-serialized values, and writes them, as
	 * {@code slipcase.redis.cache.switch-over} says
	 * @throws SlipcaseConfigurationException when a cache's values cannot be stored and read back
	 */
	public CacheValueSerializers(SlipcaseSerializerFamily family, SlipcaseRedisProperties.Cache properties,
			Map<String, List<CachedMethod>> methods, SwitchOverSerializers switchOver) {
		this.family = family;
		this.properties = properties;
		this.switchOver = switchOver;
		this.defaults = new CacheValueSerializer("*", switchedOver("*", family.valueSerializer(), List.of()), List.of(),
				"values of the allowed types " + family.allowlist().types().keySet(), properties.isUnreadableAsMiss(), family.observer());
		Set<String> names = new LinkedHashSet<>(methods.keySet());
		names.addAll(properties.getCaches().keySet());
		for (String name : names) {
			this.byCache.put(name, serializer(name, methods.getOrDefault(name, List.of())));
		}
	}

	/** The serializer of each cache a method fills or the properties configure, by cache name. */
	public Map<String, CacheValueSerializer> byCache() {
		return this.byCache;
	}

	/** The serializer of every other cache: any allowed type, tagged with its id. */
	public CacheValueSerializer defaults() {
		return this.defaults;
	}

	private CacheValueSerializer serializer(String name, List<CachedMethod> methods) {
		SlipcaseRedisProperties.CacheSpec spec = this.properties.getCaches().get(name);
		FormatKind format = (spec != null) ? spec.getFormat() : null;
		String compression = (spec != null && spec.getCompression() != null)
				? spec.getCompression().trim().toLowerCase(Locale.ROOT) : null;
		if (methods.isEmpty() && format == null && compression == null) {
			return new CacheValueSerializer(name, switchedOver(name, this.family.valueSerializer(), List.of()), List.of(),
					"values of the allowed types " + this.family.allowlist().types().keySet(),
					this.properties.isUnreadableAsMiss(), family.observer());
		}
		List<Type> types = new ArrayList<>();
		List<Class<?>> classes = new ArrayList<>();
		for (CachedMethod method : methods) {
			if (!types.contains(method.valueType())) {
				types.add(method.valueType());
				Class<?> raw = ResolvableType.forType(method.valueType()).toClass();
				if (raw != Object.class && !classes.contains(raw)) {
					classes.add(raw);
				}
			}
		}
		if (this.properties.getSwitchOver().writesJdk()) {
			requireSerializable(name, methods);
		}
		if (types.stream().anyMatch((type) -> ResolvableType.forType(type).toClass() == Object.class)) {
			classes.clear();
		}
		ValueFormat<Object> valueFormat;
		try {
			valueFormat = this.family.formatFor(types, format, compression);
		}
		catch (IllegalArgumentException ex) {
			throw unstorable(name, methods, spec != null && (format != null || compression != null), ex);
		}
		return new CacheValueSerializer(name,
				switchedOver(name, SlipcaseRedisSerializer.of(valueFormat, Object.class, this.family.allocator()), types),
				classes, describe(methods), this.properties.isUnreadableAsMiss(), family.observer());
	}

	/**
	 * {@code current}, reading JDK-serialized values of the allowed types and of {@code types},
	 * and writing them, as {@code slipcase.redis.cache.switch-over} says.
	 */
	private RedisSerializer<Object> switchedOver(String cache, RedisSerializer<Object> current, List<Type> types) {
		return this.switchOver.of(current, () -> {
			JdkAllowlist.Builder allowlist = this.switchOver.allowlist();
			types.forEach(allowlist::allowDeclared);
			return allowlist.build();
		}, this.properties.getSwitchOver(), "cache", cache);
	}

	/**
	 * Fails when a cached method's value holds a concrete class that JDK serialization cannot
	 * write, which {@code write-jdk} would fail on at every put (and which an instance without
	 * the starter could never have cached).
	 */
	private static void requireSerializable(String cache, List<CachedMethod> methods) {
		for (CachedMethod method : methods) {
			Class<?> unserializable = unserializable(ResolvableType.forType(method.valueType()));
			if (unserializable != null) {
				throw new SlipcaseConfigurationException("slipcase.redis.cache.switch-over",
						"Cache '" + cache + "' writes JDK-serialized values (switch-over: write-jdk), but " + method.describe()
								+ " caches " + method.valueType().getTypeName() + ", and " + unserializable.getName()
								+ " is not Serializable",
						"Make " + unserializable.getSimpleName() + " Serializable, or set slipcase.redis.cache.switch-over to "
								+ "read-jdk once no instance without the starter runs.",
						null);
			}
		}
	}

	private static @Nullable Class<?> unserializable(ResolvableType type) {
		Class<?> raw = type.resolve();
		if (raw != null && raw != Object.class && !raw.isPrimitive() && !raw.isInterface()
				&& !Modifier.isAbstract(raw.getModifiers()) && !Serializable.class.isAssignableFrom(raw)) {
			return raw;
		}
		if (type.isArray()) {
			return unserializable(type.getComponentType());
		}
		for (ResolvableType generic : type.getGenerics()) {
			Class<?> found = unserializable(generic);
			if (found != null) {
				return found;
			}
		}
		return null;
	}

	private static SlipcaseConfigurationException unstorable(String cache, List<CachedMethod> methods,
			boolean configured, IllegalArgumentException cause) {
		if (configured || methods.isEmpty()) {
			String property = "slipcase.redis.cache.caches." + cache;
			return new SlipcaseConfigurationException(property, "Cache '" + cache + "' cannot store "
					+ describe(methods) + ": " + cause.getMessage(),
					"Choose a format and compressor its value types support under " + property + ".", cause);
		}
		CachedMethod method = methods.stream()
			.filter((candidate) -> fails(candidate, cause))
			.findFirst()
			.orElse(methods.get(0));
		return new SlipcaseConfigurationException("slipcase.redis.types",
				"Cached method " + method.describe() + " stores " + method.valueType().getTypeName() + " in cache '"
						+ cache + "', which Slipcase cannot store: " + cause.getMessage(),
				"Allow the concrete classes of its values under slipcase.redis.types.<id>.type (or annotate them "
						+ "with @RedisFormat in the application's packages), or declare the method's concrete return type.",
				cause);
	}

	private static boolean fails(CachedMethod method, IllegalArgumentException cause) {
		String message = String.valueOf(cause.getMessage());
		Class<?> raw = ResolvableType.forType(method.valueType()).toClass();
		return message.contains(raw.getName()) || message.contains(method.valueType().getTypeName());
	}

	private static String describe(List<CachedMethod> methods) {
		if (methods.isEmpty()) {
			return "values of the allowed types";
		}
		return methods.stream()
			.map((method) -> method.valueType().getTypeName().replaceAll("(\\w+\\.)+(\\w)", "$2") + " (from "
					+ method.describe() + ")")
			.distinct()
			.collect(Collectors.joining(", "));
	}

}
