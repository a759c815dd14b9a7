package dev.slipcase.redis.springdata;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * Wraps one of Spring Data's operations interfaces ({@code ValueOperations},
 * {@code ReactiveHashOperations}, ...) so that a failure names the operation's key: the first
 * argument (the keys, for a collection or a map of them). A {@link SerializationException}
 * becomes a {@link KeyedSerializationException}; any other {@link DataAccessException} (Redis'
 * {@code WRONGTYPE}, a timeout) one of the same class whose message starts with the key, the
 * original as its cause. A blocking operation throws it; a reactive one's {@code Mono} or
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
			throw (key != null) ? naming(key, ex.getCause()) : ex.getCause();
		}
		if (key == null) {
			return result;
		}
		if (result instanceof Mono<?> mono) {
			return mono.onErrorMap((failure) -> naming(key, failure));
		}
		if (result instanceof Flux<?> flux) {
			return flux.onErrorMap((failure) -> naming(key, failure));
		}
		return result;
	}

	/** {@code failure} naming {@code key}, when it is a data access failure that does not yet. */
	private static Throwable naming(Object argument, Throwable failure) {
		if (failure instanceof KeyedSerializationException) {
			return failure;
		}
		if (failure instanceof SerializationException serialization) {
			return KeyedSerializationException.of(keys(argument), serialization);
		}
		if (failure instanceof DataAccessException access) {
			String key = KeyedSerializationException.describe(keys(argument));
			String message = String.valueOf(access.getMessage());
			if (message.contains("'" + key + "'")) {
				return access; // Slipcase's own failures name their key
			}
			// Spring's reactive translation says only "Error in execution": Redis' own words follow
			String redis = NestedExceptionUtils.getMostSpecificCause(access).getMessage();
			String keyed = "key '" + key + "': " + message
					+ ((redis != null && !message.contains(redis)) ? ": " + redis : "");
			try {
				// the same class, cause and trace: only the message gains the key
				Throwable cause = (access.getCause() != null) ? access.getCause() : access;
				DataAccessException named = access.getClass()
					.getConstructor(String.class, Throwable.class)
					.newInstance(keyed, cause);
				named.setStackTrace(access.getStackTrace());
				return named;
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				return access; // no (message, cause) constructor: as it is
			}
		}
		return failure;
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
