package dev.slipcase.redis.serializer;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.serializer.SerializationException;

/**
 * Wraps one of Spring Data's operations interfaces ({@code ValueOperations},
 * {@code ReactiveHashOperations}, ...) so that a {@link SerializationException} names the
 * operation's key: the first argument (the keys, for a collection or a map of them). A blocking
 * operation throws the {@link KeyedSerializationException}; a reactive one's {@code Mono} or
 * {@code Flux} fails with it. Everything else passes through unchanged. Stateless apart from the
 * target; thread-safe when the target is.
 */
final class KeyNamingOperations implements InvocationHandler {

	private final Object target;

	private KeyNamingOperations(Object target) {
		this.target = target;
	}

	/** {@code operations} behind the interface {@code type}, naming keys in serialization failures. */
	@SuppressWarnings("unchecked")
	static <T> T of(Class<?> type, Object operations) {
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type },
				new KeyNamingOperations(operations));
	}

	@Override
	public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args) throws Throwable {
		if (method.getDeclaringClass() == Object.class) {
			return switch (method.getName()) {
				case "equals" -> proxy == args[0];
				case "hashCode" -> System.identityHashCode(proxy);
				default -> "KeyNaming[" + this.target + "]";
			};
		}
		Object key = (args != null && args.length > 0) ? args[0] : null;
		Object result;
		try {
			result = method.invoke(this.target, args);
		}
		catch (InvocationTargetException ex) {
			Throwable failure = ex.getCause();
			if (failure instanceof SerializationException serialization && key != null) {
				throw KeyedSerializationException.of(keys(key), serialization);
			}
			throw failure;
		}
		if (key == null) {
			return result;
		}
		if (result instanceof Mono<?> mono) {
			return mono.onErrorMap(SerializationException.class, (failure) -> KeyedSerializationException.of(keys(key), failure));
		}
		if (result instanceof Flux<?> flux) {
			return flux.onErrorMap(SerializationException.class, (failure) -> KeyedSerializationException.of(keys(key), failure));
		}
		return result;
	}

	private static Object keys(Object argument) {
		if (argument instanceof Map<?, ?> map) {
			return keys(map.keySet());
		}
		if (argument instanceof Collection<?> collection) {
			return "one of " + collection.size() + " keys " + collection.stream()
				.limit(10)
				.map((key) -> (key instanceof byte[] bytes) ? KeyedSerializationException.describe(bytes)
						: String.valueOf(key))
				.collect(Collectors.joining("', '", "['", (collection.size() > 10) ? "', ...]" : "']"));
		}
		return argument;
	}

}
