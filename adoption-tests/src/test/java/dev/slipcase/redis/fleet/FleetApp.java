package dev.slipcase.redis.fleet;

import java.io.Serializable;
import java.math.BigDecimal;
import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpSession;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An app as a fleet runs it: cached orders behind a form login, sessions in Redis through Spring
 * Session. {@link RollingDeployTests} runs instances of it without the starter (its
 * auto-configurations excluded, as the app ran before) and with it, against one Redis.
 */
@SpringBootApplication
@EnableCaching
public class FleetApp {

	/** What the cache holds: a record, as JDK serialization needs, Serializable. */
	public record FleetOrder(long id, String customer, BigDecimal total, Instant placed, List<String> items)
			implements Serializable {

		static FleetOrder of(long id) {
			return new FleetOrder(id, "ada", new BigDecimal("19.99").add(BigDecimal.valueOf(id)),
					Instant.parse("2026-11-21T10:15:30.123456Z").plusSeconds(id), List.of("sku-" + id, "gift-wrap"));
		}

	}

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.formLogin(Customizer.withDefaults());
		return http.build();
	}

	@Bean
	UserDetailsService users() {
		return new InMemoryUserDetailsManager(User.withUsername("ada").password("{noop}secret").roles("USER").build());
	}

	/** Orders, cached in Redis. */
	@Service
	public static class Orders {

		final AtomicInteger loads = new AtomicInteger();

		@Cacheable("fleet-orders")
		public FleetOrder order(long id) {
			this.loads.incrementAndGet();
			return FleetOrder.of(id);
		}

	}

	/** The pages: an order, and who is logged in with how many visits in this session. */
	@RestController
	static class Pages {

		private final Orders orders;

		Pages(Orders orders) {
			this.orders = orders;
		}

		@GetMapping("/orders/{id}")
		FleetOrder order(@PathVariable long id) {
			return this.orders.order(id);
		}

		@GetMapping("/me")
		String me(Principal principal, HttpSession session) {
			Integer visits = (Integer) session.getAttribute("visits");
			int now = (visits != null) ? visits + 1 : 1;
			session.setAttribute("visits", now);
			return principal.getName() + " " + now;
		}

	}

}
