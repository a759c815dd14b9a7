package dev.slipcase.redis.serializer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Finds value types in packages: every concrete class, or only those annotated with
 * {@link RedisFormat}, each under its name relative to its package ({@code Order},
 * {@code Order.Line}), which must be unique across the scanned packages. Thread-safe.
 */
public final class ValueTypeScanner {

	private final ClassLoader classLoader;

	/** A scanner that loads the classes it finds with {@code classLoader}. */
	public ValueTypeScanner(ClassLoader classLoader) {
		Assert.notNull(classLoader, "classLoader must not be null");
		this.classLoader = classLoader;
	}

	/**
	 * The types in {@code packages} by id, in the order found.
	 * @param annotatedOnly whether to keep only {@code @RedisFormat} types
	 * @throws IllegalArgumentException when two types found have the same id
	 */
	public Map<String, Class<?>> scan(List<String> packages, boolean annotatedOnly) {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.setResourceLoader(new DefaultResourceLoader(this.classLoader));
		scanner.addIncludeFilter(annotatedOnly ? new AnnotationTypeFilter(RedisFormat.class, false)
				: (reader, factory) -> !reader.getClassMetadata().isAnnotation()
						&& !reader.getClassMetadata().getClassName().endsWith("package-info"));
		Map<String, Class<?>> types = new LinkedHashMap<>();
		for (String packageName : packages) {
			for (BeanDefinition candidate : scanner.findCandidateComponents(packageName)) {
				Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), this.classLoader);
				String id = type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
				Class<?> existing = types.putIfAbsent(id, type);
				if (existing != null && existing != type) {
					throw new IllegalArgumentException("Two value types have the id '" + id + "': "
							+ existing.getName() + " and " + type.getName());
				}
			}
		}
		return types;
	}

}
