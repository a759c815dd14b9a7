package dev.slipcase.redis.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.serializer.RedisFormat;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Finds value types in packages: every concrete class, or only those annotated with
 * {@link RedisFormat}, each under its name relative to its package ({@code Order},
 * {@code Order.Line}), which must be unique across the scanned packages.
 */
final class ValueTypeScanner {

	private final ClassLoader classLoader;

	ValueTypeScanner(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	/**
	 * The types in {@code packages} by id.
	 * @param annotatedOnly whether to keep only {@code @RedisFormat} types
	 * @param property the property that listed the packages, for messages
	 */
	Map<String, Class<?>> scan(List<String> packages, boolean annotatedOnly, String property) {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.setResourceLoader(new org.springframework.core.io.DefaultResourceLoader(this.classLoader));
		scanner.addIncludeFilter(annotatedOnly ? new AnnotationTypeFilter(RedisFormat.class, false)
				: (reader, factory) -> !reader.getClassMetadata().isAnnotation()
						&& !reader.getClassMetadata().getClassName().endsWith("package-info"));
		Map<String, Class<?>> types = new LinkedHashMap<>();
		for (String packageName : packages) {
			for (BeanDefinition candidate : scanner.findCandidateComponents(packageName)) {
				String className = candidate.getBeanClassName();
				Class<?> type = ClassUtils.resolveClassName(className, this.classLoader);
				String id = type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
				Class<?> existing = types.putIfAbsent(id, type);
				if (existing != null && existing != type) {
					throw new SlipcaseConfigurationException(property,
							"Two value types have the id '" + id + "': " + existing.getName() + " and " + type.getName(),
							"Allow one of them under another id with slipcase.redis.types.<id>.type, or list only one of their packages.",
							null);
				}
			}
		}
		return types;
	}

}
