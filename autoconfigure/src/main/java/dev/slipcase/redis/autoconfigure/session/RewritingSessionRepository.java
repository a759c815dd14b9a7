package dev.slipcase.redis.autoconfigure.session;

import java.lang.reflect.Field;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.util.ReflectionUtils;

/**
 * Spring Session's {@link RedisSessionRepository}, writing a session that was loaded with any
 * JDK-serialized value again whole, in Slipcase's format, when it is next saved: every attribute
 * and the maximum inactive interval through the session's own changes, and the creation time,
 * which a session never changes, by one conditional {@code HSET} on the session's key right after.
 * A session that is not saved again is left as it is. Thread-safe.
 */
public final class RewritingSessionRepository implements SessionRepository<Session> {

	/** Sets the creation time of a session that still exists; never creates one. */
	private static final RedisScript<Long> CREATION_TIME = RedisScript.of(
			"if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], 'creationTime', ARGV[1]) end "
					+ "return -1",
			Long.class);

	private final SessionRepository<Session> delegate;

	private final RedisOperations<String, Object> operations;

	private final String keyPrefix;

	/** The sessions loaded with a JDK value and not yet saved, by identity; one never saved is forgotten. */
	private final Map<Session, Boolean> rewrites = Collections.synchronizedMap(new WeakHashMap<>());

	/**
	 * Wraps {@code delegate}.
	 * @param keyPrefix what the repository puts before a session's id to make its key, such as
	 * {@code "spring:session:sessions:"}
	 */
	@SuppressWarnings("unchecked")
	RewritingSessionRepository(RedisSessionRepository delegate, String keyPrefix) {
		this.delegate = (SessionRepository<Session>) (SessionRepository<?>) delegate;
		this.operations = delegate.getSessionRedisOperations();
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Wraps {@code repository}, with the key namespace it was configured with.
	 * @throws IllegalStateException when the repository's namespace cannot be read
	 */
	public static RewritingSessionRepository of(RedisSessionRepository repository) {
		// Spring Session keeps the namespace in a private field, with no getter; a session's key is
		// that namespace, "sessions:" and its id (RedisSessionRepository.getSessionKey).
		Field namespace = ReflectionUtils.findField(RedisSessionRepository.class, "keyNamespace", String.class);
		if (namespace == null) {
			throw new IllegalStateException("This version of Spring Session's RedisSessionRepository has no "
					+ "keyNamespace field, which slipcase.redis.session.switch-over=read-jdk reads to rewrite sessions");
		}
		ReflectionUtils.makeAccessible(namespace);
		return new RewritingSessionRepository(repository, ReflectionUtils.getField(namespace, repository) + "sessions:");
	}

	@Override
	public Session createSession() {
		return this.delegate.createSession();
	}

	@Override
	public @Nullable Session findById(String id) {
		JdkSessionReads.start();
		Session session;
		boolean jdk;
		try {
			session = this.delegate.findById(id);
		}
		finally {
			jdk = JdkSessionReads.stop();
		}
		if (session != null && jdk) {
			for (String name : session.getAttributeNames()) {
				session.setAttribute(name, session.getAttribute(name));
			}
			session.setMaxInactiveInterval(session.getMaxInactiveInterval());
			this.rewrites.put(session, Boolean.TRUE);
		}
		return session;
	}

	@Override
	public void save(Session session) {
		this.delegate.save(session);
		if (this.rewrites.remove(session) != null) {
			Instant created = session.getCreationTime();
			this.operations.execute(CREATION_TIME, List.of(this.keyPrefix + session.getId()), created.toEpochMilli());
		}
	}

	@Override
	public void deleteById(String id) {
		this.delegate.deleteById(id);
	}

}
