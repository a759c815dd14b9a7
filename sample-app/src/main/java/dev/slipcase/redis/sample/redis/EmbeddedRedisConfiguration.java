package dev.slipcase.redis.sample.redis;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Starts an {@link EmbeddedRedisServer} when no Redis is configured, and points Spring Boot's
 * Redis auto-configuration at it through a {@link DataRedisConnectionDetails} bean (which Boot
 * prefers over {@code spring.data.redis.*} properties).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoRedisConfiguredCondition.class)
class EmbeddedRedisConfiguration {

	@Bean(destroyMethod = "close")
	EmbeddedRedisServer embeddedRedisServer() {
		return new EmbeddedRedisServer();
	}

	@Bean
	DataRedisConnectionDetails embeddedRedisConnectionDetails(EmbeddedRedisServer server) {
		return new DataRedisConnectionDetails() {

			@Override
			public Standalone getStandalone() {
				return Standalone.of(EmbeddedRedisServer.HOST, server.port());
			}

		};
	}

}
