package dev.slipcase.redis.autoconfigure;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.slipcase.redis.serializer.format.ResolvedType;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.cache.interceptor.CacheOperation;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.cache.interceptor.CachePutOperation;
import org.springframework.cache.interceptor.CacheableOperation;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds what each cache stores: the methods of the application's beans that fill a cache
 * ({@code @Cacheable}, {@code @CachePut}, as the context's {@link CacheOperationSource} reads
 * them), with the type of value each one caches, resolved from its generic return type:
 * {@code Optional<T>}, {@code CompletableFuture<T>} and Reactor's {@code Mono<T>} cache a
 * {@code T}, a {@code Flux<T>} caches a {@code List<T>}. Reads bean classes only; creates no
 * bean.
 */
public final class CachedMethods {

	private static final String MONO = "reactor.core.publisher.Mono";

	private static final String FLUX = "reactor.core.publisher.Flux";

	private CachedMethods() {
	}

	/**
	 * The methods that fill each cache, by cache name, in bean-definition order.
	 * @param beanFactory the application's bean factory
	 * @param operations reads the cache annotations
	 */
	public static Map<String, List<CachedMethod>> find(ConfigurableListableBeanFactory beanFactory,
			CacheOperationSource operations) {
		Map<String, List<CachedMethod>> byCache = new LinkedHashMap<>();
		for (Class<?> beanClass : beanClasses(beanFactory)) {
			if (!operations.isCandidateClass(beanClass)) {
				continue;
			}
			ReflectionUtils.doWithMethods(beanClass, (method) -> {
				Collection<CacheOperation> found = operations.getCacheOperations(method, beanClass);
				if (found == null) {
					return;
				}
				for (CacheOperation operation : found) {
					if (!(operation instanceof CacheableOperation) && !(operation instanceof CachePutOperation)) {
						continue;
					}
					Type valueType = valueType(ResolvableType.forMethodReturnType(method, beanClass));
					if (valueType == void.class || valueType == Void.class) {
						continue;
					}
					CachedMethod cached = new CachedMethod(beanClass, method, valueType);
					for (String cache : operation.getCacheNames()) {
						List<CachedMethod> methods = byCache.computeIfAbsent(cache, (name) -> new ArrayList<>());
						if (!methods.contains(cached)) {
							methods.add(cached);
						}
					}
				}
			}, ReflectionUtils.USER_DECLARED_METHODS);
		}
		return byCache;
	}

	private static List<Class<?>> beanClasses(ConfigurableListableBeanFactory beanFactory) {
		List<Class<?>> classes = new ArrayList<>();
		for (String name : beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
			if (definition.isAbstract() || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = null;
			if (beanFactory.containsSingleton(name)) {
				Object bean = beanFactory.getSingleton(name);
				if (bean != null) {
					type = AopUtils.isAopProxy(bean) ? AopProxyUtils.ultimateTargetClass(bean) : bean.getClass();
				}
			}
			if (type == null) {
				type = beanFactory.getType(name, false);
			}
			if (type != null) {
				type = ClassUtils.getUserClass(type);
				if (!classes.contains(type)) {
					classes.add(type);
				}
			}
		}
		return classes;
	}

	/** The type a method returning {@code returnType} caches, with every type variable it can resolve. */
	static Type valueType(ResolvableType returnType) {
		Class<?> raw = returnType.toClass();
		if (raw == Optional.class || CompletionStage.class.isAssignableFrom(raw) || Future.class.isAssignableFrom(raw)
				|| raw.getName().equals(MONO)) {
			return toType(generic(returnType, raw));
		}
		if (raw.getName().equals(FLUX)) {
			return new ResolvedType(List.class, new Type[] { toType(generic(returnType, raw)) });
		}
		return toType(returnType);
	}

	/**
	 * The application's own classes in {@code type}: the concrete classes, outside the JDK, that
	 * it is or that its type arguments are ({@code Order} for {@code Map<String, List<Order>>}).
	 */
	public static List<Class<?>> applicationClasses(Type type) {
		List<Class<?>> classes = new ArrayList<>();
		collect(ResolvableType.forType(type), classes);
		return classes;
	}

	private static void collect(ResolvableType type, List<Class<?>> classes) {
		Class<?> raw = type.resolve();
		if (raw == null) {
			return;
		}
		if (raw.isArray()) {
			collect(type.getComponentType(), classes);
			return;
		}
		boolean jdk = raw.isPrimitive() || raw.getName().startsWith("java.") || raw.getName().startsWith("javax.")
				|| raw.getName().startsWith("jdk.");
		if (!jdk && !raw.isInterface() && !java.lang.reflect.Modifier.isAbstract(raw.getModifiers())
				&& !classes.contains(raw)) {
			classes.add(raw);
		}
		for (ResolvableType generic : type.getGenerics()) {
			collect(generic, classes);
		}
	}

	private static ResolvableType generic(ResolvableType type, Class<?> raw) {
		ResolvableType as = (raw == Optional.class) ? type : type.as(raw);
		return as.getGeneric(0);
	}

	private static Type toType(ResolvableType type) {
		Class<?> raw = type.resolve(Object.class);
		if (raw.isPrimitive()) {
			return ClassUtils.resolvePrimitiveIfNecessary(raw);
		}
		if (!type.hasGenerics() || raw.getTypeParameters().length != type.getGenerics().length) {
			return raw;
		}
		Type[] arguments = Arrays.stream(type.getGenerics()).map(CachedMethods::toType).toArray(Type[]::new);
		return new ResolvedType(raw, arguments);
	}

	/**
	 * A method that fills a cache.
	 * @param beanClass the bean class the method was found on
	 * @param method the method
	 * @param valueType the type of value it caches
	 */
	public record CachedMethod(Class<?> beanClass, Method method, Type valueType) {

		/** The method as a person names it: {@code OrderService.find(long)}. */
		public String describe() {
			return beanClass().getSimpleName() + "." + method().getName() + Arrays.stream(method().getParameterTypes())
				.map(Class::getSimpleName)
				.collect(Collectors.joining(", ", "(", ")"));
		}

	}

}
