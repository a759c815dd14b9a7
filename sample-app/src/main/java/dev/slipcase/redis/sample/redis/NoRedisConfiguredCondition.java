package dev.slipcase.redis.sample.redis;

import java.util.List;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the environment names no Redis server: none of {@code spring.data.redis.url},
 * {@code host}, {@code port}, {@code cluster.nodes}, {@code sentinel.nodes} or
 * {@code masterreplica.nodes} is set, and {@code sample.embedded-redis.enabled} is not
 * {@code false}.
 */
class NoRedisConfiguredCondition implements Condition {

	private static final List<String> SERVER_PROPERTIES = List.of("spring.data.redis.url", "spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.cluster.nodes", "spring.data.redis.sentinel.nodes",
			"spring.data.redis.masterreplica.nodes");

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Environment environment = context.getEnvironment();
		if (!environment.getProperty("sample.embedded-redis.enabled", Boolean.class, true)) {
			return false;
		}
		return SERVER_PROPERTIES.stream().noneMatch(environment::containsProperty);
	}

}
