package dev.slipcase.redis.webflux;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * A WebFlux shop with the starter and nothing Slipcase-specific in its code but the file
 * endpoints: products cached by a reactive {@code @Cacheable}, a form login whose security
 * context lives in a Redis-backed {@code WebSession}, and files streamed through Redis.
 */
@SpringBootApplication
@EnableCaching
public class ShopWebFluxApp {

	@Bean
	ProductCatalog productCatalog() {
		return new ProductCatalog();
	}

	@Bean
	MapReactiveUserDetailsService users() {
		return new MapReactiveUserDetailsService(User.withUsername("ada").password("{noop}lovelace").roles("USER").build());
	}

	@Bean
	SecurityWebFilterChain security(ServerHttpSecurity http) {
		return http.authorizeExchange((exchanges) -> exchanges.pathMatchers("/me").authenticated().anyExchange().permitAll())
			.formLogin((login) -> {
			})
			// the tests post the login form and upload files without a browser's CSRF token
			.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.build();
	}

}
