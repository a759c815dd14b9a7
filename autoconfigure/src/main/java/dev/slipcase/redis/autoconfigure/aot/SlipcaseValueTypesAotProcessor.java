package dev.slipcase.redis.autoconfigure.aot;

import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.slipcase.redis.autoconfigure.CachedMethods;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.serializer.ValueTypeScanner;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cache.annotation.AnnotationCacheOperationSource;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Registers, at build time, the reflection that Slipcase's formats (Jackson's JSON, Slipcase's
 * Protostuff schemas and record constructors) need in a native image for the application's
 * value types: the types of {@code slipcase.redis.types.*}, the types found in
 * {@code slipcase.redis.packages} (or the application's {@code @RedisFormat} types), and what
 * every {@code @Cacheable}/{@code @CachePut} method caches, with their fields' and type
 * arguments' types, as Spring's {@link BindingReflectionHintsRegistrar} walks them.
 */
public final class SlipcaseValueTypesAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		Set<Type> types = valueTypes(beanFactory);
		if (types.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> register(generationContext.getRuntimeHints(), types);
	}

	/** Registers the hints for {@code types} in {@code hints}. */
	static void register(RuntimeHints hints, Set<Type> types) {
		BindingReflectionHintsRegistrar registrar = new BindingReflectionHintsRegistrar();
		registrar.registerReflectionHints(hints.reflection(), types.toArray(Type[]::new));
	}

	/** The application's value types, as the auto-configuration will see them when it runs. */
	static Set<Type> valueTypes(ConfigurableListableBeanFactory beanFactory) {
		Set<Type> types = new LinkedHashSet<>();
		ClassLoader classLoader = (beanFactory.getBeanClassLoader() != null) ? beanFactory.getBeanClassLoader()
				: ClassUtils.getDefaultClassLoader();
		SlipcaseRedisProperties properties = properties(beanFactory);
		properties.getTypes().values().forEach((type) -> {
			if (type.getType() != null) {
				types.add(type.getType());
			}
		});
		List<String> packages = properties.getPackages();
		boolean annotatedOnly = packages.isEmpty();
		if (annotatedOnly && AutoConfigurationPackages.has(beanFactory)) {
			packages = AutoConfigurationPackages.get(beanFactory);
		}
		types.addAll(new ValueTypeScanner(classLoader).scan(packages, annotatedOnly).values());
		CacheOperationSource operations = beanFactory.getBeanProvider(CacheOperationSource.class)
			.getIfUnique(AnnotationCacheOperationSource::new);
		CachedMethods.find(beanFactory, operations)
			.values()
			.forEach((methods) -> methods.forEach((method) -> types.add(method.valueType())));
		return types;
	}

	private static SlipcaseRedisProperties properties(ConfigurableListableBeanFactory beanFactory) {
		Environment environment = beanFactory.getBeanProvider(Environment.class).getIfAvailable();
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return new SlipcaseRedisProperties();
		}
		return Binder.get(configurable)
			.bind("slipcase.redis", SlipcaseRedisProperties.class)
			.orElseGet(SlipcaseRedisProperties::new);
	}

}
