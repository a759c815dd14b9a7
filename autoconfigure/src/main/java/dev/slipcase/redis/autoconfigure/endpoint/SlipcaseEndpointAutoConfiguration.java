package dev.slipcase.redis.autoconfigure.endpoint;

import dev.slipcase.redis.autoconfigure.metrics.SlipcaseMetricsProperties;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@code slipcase} actuator endpoint ({@link SlipcaseEndpoint}), when Spring Boot Actuator is
 * on the class path and the endpoint is available (accessible and exposed, e.g.
 * {@code management.endpoints.web.exposure.include=slipcase}). Backs off when the application
 * defines its own {@link SlipcaseEndpoint}.
 */
@AutoConfiguration
@ConditionalOnClass(name = { "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
		"org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint" })
@EnableConfigurationProperties(SlipcaseMetricsProperties.class)
public final class SlipcaseEndpointAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(SlipcaseEndpoint.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		SlipcaseEndpoint slipcaseEndpoint(ListableBeanFactory beans, Environment environment,
				SlipcaseMetricsProperties properties) {
			return new SlipcaseEndpoint(beans, environment, properties.getReportBuckets());
		}

		@Bean
		@ConditionalOnMissingBean
		SlipcaseEndpointWebExtension slipcaseEndpointWebExtension(SlipcaseEndpoint endpoint) {
			return new SlipcaseEndpointWebExtension(endpoint);
		}

	}

}
