package dev.slipcase.redis.autoconfigure.sharded;

import java.math.BigDecimal;

import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.sharded.SlipcaseShardedProperties.Namespace;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.sharded.ShardLayoutMismatchException;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplates;
import io.lettuce.core.RedisException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.ClassUtils;

/**
 * Makes the template of each namespace declared in properties; the factory bean of the
 * {@code <name>ShardedTemplate} bean definitions {@link ShardedNamespaceRegistrar} registers.
 * Failures become {@link SlipcaseConfigurationException}s saying what to change.
 */
final class ShardedNamespaceBeans implements BeanClassLoaderAware {

	private static final String JSON_MAPPER = "tools.jackson.databind.json.JsonMapper";

	private final ObjectProvider<ShardedTemplates> templates;

	private final SlipcaseShardedProperties properties;

	private final ObjectProvider<FormatRouter> formatRouter;

	private final ObjectProvider<ShardedNamespaceCustomizer> customizers;

	private final ObservationRegistry observations;

	private @Nullable ClassLoader classLoader;

	ShardedNamespaceBeans(ObjectProvider<ShardedTemplates> templates, SlipcaseShardedProperties properties,
			ObjectProvider<FormatRouter> formatRouter, ObjectProvider<ShardedNamespaceCustomizer> customizers,
			ObservationRegistry observations) {
		this.templates = templates;
		this.properties = properties;
		this.formatRouter = formatRouter;
		this.customizers = customizers;
		this.observations = observations;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	/** The template of namespace {@code name}, whose layout is stored or checked in Redis now. */
	ShardedTemplate<?> template(String name) {
		Namespace declared = this.properties.getNamespaces().get(name);
		if (declared == null) {
			throw new IllegalStateException("No namespace '" + name + "' under slipcase.redis.sharded.namespaces");
		}
		ShardedNamespace.Builder builder = ShardedNamespaces.builder(name, declared);
		this.customizers.orderedStream().forEach((customizer) -> customizer.customize(name, builder));
		ShardedNamespace namespace = ShardedNamespaces.build(name, builder);
		RedisSerializer<?> serializer = serializer(name, declared);
		String group = ShardedNamespaces.PREFIX + name;
		try {
			return this.templates.getObject().template(namespace, serializer).withObservationRegistry(this.observations);
		}
		catch (ShardLayoutMismatchException ex) {
			throw new SlipcaseConfigurationException(group, ex.getMessage(), "Configure the layout stored in Redis "
					+ "(key-prefix, strategy, bucket-size, bucket-count under " + group + "), or give the namespace a "
					+ "new alias (" + group + ".alias) and move the keys with ShardedTemplate.migrator().", ex);
		}
		catch (RedisException | DataAccessException ex) {
			throw unreachable(group, ex);
		}
		catch (IllegalStateException ex) {
			throw new SlipcaseConfigurationException(group, ex.getMessage(), "Set " + group + ".max-entries and "
					+ group + ".max-value-size to the server's hash-max-listpack-entries and hash-max-listpack-value "
					+ "where CONFIG GET is blocked, and keep bucket-size at most max-entries.", ex);
		}
	}

	static SlipcaseConfigurationException unreachable(String property, RuntimeException ex) {
		return new SlipcaseConfigurationException(property, "Redis could not be reached to read its limits and "
				+ "store or check the namespace layout (" + ex.getMessage() + ")", "Start Redis or correct "
				+ "spring.data.redis.*; or set slipcase.redis.sharded.lazy-initialization=true to create the "
				+ "templates of declared namespaces on first use instead of at start-up.", ex);
	}

	private RedisSerializer<?> serializer(String name, Namespace declared) {
		Class<?> type = declared.getValueType();
		String property = ShardedNamespaces.PREFIX + name + ".value-type";
		if (type == String.class) {
			return SlipcaseSerializers.string();
		}
		if (type == Long.class || type == long.class) {
			return SlipcaseSerializers.longs();
		}
		if (type == Integer.class || type == int.class) {
			return SlipcaseSerializers.integers();
		}
		if (type == Double.class || type == double.class) {
			return SlipcaseSerializers.doubles();
		}
		if (type == BigDecimal.class) {
			return SlipcaseSerializers.decimals();
		}
		if (type == byte[].class) {
			return SlipcaseSerializers.bytes();
		}
		if (!ClassUtils.isPresent(JSON_MAPPER, this.classLoader)) {
			throw new SlipcaseConfigurationException(property, "Values of " + type.getName() + " need Jackson ("
					+ JSON_MAPPER + "), which is not on the class path.",
					"Add tools.jackson.core:jackson-databind, or store String, Long, Integer, Double, BigDecimal or "
							+ "byte[] values.",
					null);
		}
		try {
			FormatKind format = declared.getFormat();
			if (format == FormatKind.JSON) {
				return SlipcaseSerializers.json(type);
			}
			if (format == FormatKind.PROTOSTUFF) {
				return SlipcaseSerializers.protostuff(type);
			}
			if (format == FormatKind.FORY) {
				return SlipcaseSerializers.fory(type);
			}
			return this.formatRouter.getIfUnique(() -> FormatRouter.builder().build()).serializer(type);
		}
		catch (IllegalArgumentException | NoClassDefFoundError ex) {
			throw new SlipcaseConfigurationException(ShardedNamespaces.PREFIX + name + ".format", "Values of "
					+ type.getName() + " cannot be written in the chosen format: " + ex.getMessage(),
					"Choose another format for " + ShardedNamespaces.PREFIX + name
							+ ".format (JSON works for any type), or add the format's library.",
					ex);
		}
	}

}
