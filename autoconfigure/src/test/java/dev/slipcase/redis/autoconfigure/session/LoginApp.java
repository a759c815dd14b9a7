package dev.slipcase.redis.autoconfigure.session;

import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.RedisFormat;
import dev.slipcase.redis.test.RedisServer;
import jakarta.servlet.http.HttpSession;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web app with Spring Security's form login (user {@code ada}, password {@code secret}), every
 * page behind it, and Spring Session on Redis: {@code /me} answers the user's name, and
 * {@code /cart/add?item=…} keeps a cart of {@link CartItem}s in the session.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class LoginApp {

	/** Starts the app on a free port against {@code redis}, with {@code extraArguments}. */
	static ConfigurableApplicationContext start(RedisServer redis, String... extraArguments) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0",
				"--spring.data.redis.host=" + redis.endpoint().host(), "--spring.data.redis.port=" + redis.endpoint().port(),
				"--spring.session.redis.namespace=spring:session", "--logging.level.root=WARN"));
		arguments.addAll(List.of(extraArguments));
		return new SpringApplication(LoginApp.class).run(arguments.toArray(String[]::new));
	}

	/** The port {@code context}'s web server listens on. */
	static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.formLogin(Customizer.withDefaults())
			.build();
	}

	@Bean
	UserDetailsService users() {
		return new InMemoryUserDetailsManager(User.withUsername("ada").password("{noop}secret").roles("USER").build());
	}

	/** An item in the shopping cart, an application type in the session ({@code Serializable} only for the JDK comparison). */
	@RedisFormat(FormatKind.JSON)
	public record CartItem(String name, int quantity) implements java.io.Serializable {
	}

	/** The app's pages; a member component of the configuration, registered with it. */
	@RestController
	static class Shop {

		@GetMapping("/me")
		String me(java.security.Principal principal) {
			return principal.getName();
		}

		@GetMapping("/cart/add")
		@SuppressWarnings("unchecked")
		String add(@RequestParam String item, HttpSession session) {
			List<CartItem> cart = (List<CartItem>) session.getAttribute("cart");
			List<CartItem> updated = new ArrayList<>((cart != null) ? cart : List.of());
			updated.add(new CartItem(item, 1));
			session.setAttribute("cart", updated);
			return updated.size() + " item(s)";
		}

	}

}
