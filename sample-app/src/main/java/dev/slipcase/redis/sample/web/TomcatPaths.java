package dev.slipcase.redis.sample.web;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Lets an encoded slash ({@code %2F}) in a path reach the app, which answers it with a problem
 * detail (such as "a document name is letters, digits..."), instead of Tomcat rejecting the
 * request with its own HTML error page before any of the app's code runs.
 */
@Configuration(proxyBeanMethods = false)
class TomcatPaths {

	@Bean
	TomcatConnectorCustomizer encodedSlashesReachTheApp() {
		return (connector) -> connector.setEncodedSolidusHandling("passthrough");
	}

}
