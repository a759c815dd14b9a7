package dev.slipcase.redis.autoconfigure.session;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.GenericToStringSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.Session;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.util.ReflectionUtils;

/**
 * Makes Spring Session's {@link RedisSessionRepository} write a session that was loaded with any
 * JDK-serialized value again whole, in Slipcase's format, when it is next saved: every attribute
 * and the maximum inactive interval through the session's own changes, and the creation time,
 * which a session never changes, by one conditional {@code HSET} on the session's key right
 * after. A session that is not saved again is left as it is. Applied as a class proxy
 * ({@link #proxy}), so the repository keeps its type. Thread-safe.
 */
public final class RewritingSessionRepository implements MethodInterceptor {

	/** Sets the creation time of a session that still exists; never creates one. */
	private static final RedisScript<Long> CREATION_TIME = RedisScript.of(
			"if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], 'creationTime', ARGV[1]) end "
					+ "return -1",
			Long.class);

	/** The script's reply, an integer that is not read. */
	private static final RedisSerializer<Long> REPLY = new GenericToStringSerializer<>(Long.class);

	private final RedisOperations<String, Object> operations;

	private final String keyPrefix;

	/** The sessions loaded with a JDK value and not yet saved, by identity; one never saved is forgotten. */
	private final Map<Session, Boolean> rewrites = Collections.synchronizedMap(new WeakHashMap<>());

	private RewritingSessionRepository(RedisOperations<String, Object> operations, String keyPrefix) {
		this.operations = operations;
		this.keyPrefix = keyPrefix;
	}

	/**
	 * {@code repository}, writing sessions loaded with a JDK value again whole on their next save.
	 * @throws IllegalStateException when the repository's key namespace cannot be read
	 */
	public static RedisSessionRepository proxy(RedisSessionRepository repository) {
		// Spring Session keeps the namespace in a private field, with no getter; a session's key is
		// that namespace, "sessions:" and its id (RedisSessionRepository.getSessionKey).
		Field namespace = ReflectionUtils.findField(RedisSessionRepository.class, "keyNamespace", String.class);
		if (namespace == null) {
			throw new IllegalStateException("This version of Spring Session's RedisSessionRepository has no "
					+ "keyNamespace field, which slipcase.redis.session.switch-over=read-jdk reads to rewrite sessions");
		}
		ReflectionUtils.makeAccessible(namespace);
		String keyPrefix = ReflectionUtils.getField(namespace, repository) + "sessions:";
		ProxyFactory factory = new ProxyFactory(repository);
		factory.setProxyTargetClass(true);
		factory.addAdvice(new RewritingSessionRepository(repository.getSessionRedisOperations(), keyPrefix));
		return (RedisSessionRepository) factory.getProxy(RedisSessionRepository.class.getClassLoader());
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		return switch (invocation.getMethod().getName()) {
			case "findById" -> findById(invocation);
			case "save" -> save(invocation);
			default -> invocation.proceed();
		};
	}

	private @Nullable Object findById(MethodInvocation invocation) throws Throwable {
		boolean[] outer = JdkSessionReads.start();
		Object found;
		boolean jdk;
		try {
			found = invocation.proceed();
		}
		finally {
			jdk = JdkSessionReads.stop(outer);
		}
		if (found instanceof Session session && jdk) {
			for (String name : session.getAttributeNames()) {
				session.setAttribute(name, session.getAttribute(name));
			}
			session.setMaxInactiveInterval(session.getMaxInactiveInterval());
			this.rewrites.put(session, Boolean.TRUE);
		}
		return found;
	}

	private @Nullable Object save(MethodInvocation invocation) throws Throwable {
		Object result = invocation.proceed();
		if (invocation.getArguments()[0] instanceof Session session && this.rewrites.remove(session) != null) {
			// the argument as the session's hash values are written, not as plain values
			@SuppressWarnings("unchecked")
			RedisSerializer<Object> values = (RedisSerializer<Object>) this.operations.getHashValueSerializer();
			this.operations.execute(CREATION_TIME, values, REPLY, List.of(this.keyPrefix + session.getId()),
					session.getCreationTime().toEpochMilli());
		}
		return result;
	}

}
