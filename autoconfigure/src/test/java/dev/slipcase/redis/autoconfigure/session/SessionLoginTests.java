package dev.slipcase.redis.autoconfigure.session;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.RedisFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import jakarta.servlet.http.HttpSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Boot web app with Spring Security's form login and Spring Session on a real Redis, over
 * real HTTP: the logged-in session is stored through Slipcase (JSON readable in Redis), a second
 * app on the same Redis reads it, it is smaller than with JDK serialization, and a session Slipcase
 * cannot read is treated as absent.
 */
class SessionLoginTests {

	private static final RedisServer redis = RedisServers.shared();

	private ConfigurableApplicationContext first;

	private ConfigurableApplicationContext second;

	@BeforeEach
	void startTwoApps() {
		redis.command("FLUSHDB");
		this.first = start();
		this.second = start();
	}

	@AfterEach
	void stopApps() {
		this.first.close();
		this.second.close();
	}

	@Test
	void aLoggedInSessionIsStoredAsJsonAndReadByAnotherApp() throws Exception {
		Browser browser = new Browser(port(this.first));
		browser.logIn("ada", "secret");
		assertThat(browser.get("/cart/add?item=book").body()).isEqualTo("1 item(s)");
		assertThat(browser.get("/me").body()).isEqualTo("ada");

		String sessionKey = "spring:session:sessions:" + browser.sessionId();
		String context = (String) redis.command("HGET", sessionKey, "sessionAttr:SPRING_SECURITY_CONTEXT");
		assertThat(context).startsWith("{\"@class\":\"org.springframework.security.core.context.SecurityContextImpl\"")
			.contains("\"ada\"")
			.doesNotContain("secret");
		assertThat((String) redis.command("HGET", sessionKey, "sessionAttr:cart")).contains("book");

		Browser sameCookieOnTheOtherApp = browser.on(port(this.second));
		assertThat(sameCookieOnTheOtherApp.get("/me").body()).isEqualTo("ada");
		assertThat(sameCookieOnTheOtherApp.get("/cart/add?item=pen").body()).isEqualTo("2 item(s)");
	}

	@Test
	void theSessionIsSmallerThanWithJdkSerialization() throws Exception {
		Browser browser = new Browser(port(this.first));
		browser.logIn("ada", "secret");
		browser.get("/cart/add?item=book");
		byte[] key = ("spring:session:sessions:" + browser.sessionId()).getBytes(StandardCharsets.UTF_8);
		RedisSerializer<Object> slipcase = this.first.getBean("springSessionDefaultRedisSerializer",
				SessionValueSerializer.class);
		JdkSerializationRedisSerializer jdk = new JdkSerializationRedisSerializer();
		long slipcaseBytes = 0;
		long jdkBytes = 0;
		try (RedisConnection connection = this.first.getBean(RedisConnectionFactory.class).getConnection()) {
			Map<byte[], byte[]> fields = connection.hashCommands().hGetAll(key);
			assertThat(fields).isNotEmpty();
			for (Map.Entry<byte[], byte[]> field : fields.entrySet()) {
				Object value = slipcase.deserialize(field.getValue());
				assertThat(value).isNotSameAs(SessionValueSerializer.UNREADABLE);
				slipcaseBytes += field.getValue().length;
				jdkBytes += jdk.serialize(value).length;
			}
		}
		double ratio = (double) slipcaseBytes / jdkBytes;
		System.out.printf("Logged-in session values: Slipcase JSON %d bytes, JDK serialization %d bytes, ratio %.2f%n",
				slipcaseBytes, jdkBytes, ratio);
		assertThat(ratio).isLessThan(1.0);
	}

	@Test
	void aSessionWithAValueSlipcaseCannotReadIsAbsentNotAnError() throws Exception {
		Browser browser = new Browser(port(this.first));
		browser.logIn("ada", "secret");
		byte[] key = ("spring:session:sessions:" + browser.sessionId()).getBytes(StandardCharsets.UTF_8);
		try (RedisConnection connection = this.first.getBean(RedisConnectionFactory.class).getConnection()) {
			connection.hashCommands()
				.hSet(key, "sessionAttr:legacy".getBytes(StandardCharsets.UTF_8),
						new JdkSerializationRedisSerializer().serialize(new java.util.Date(0)));
		}
		HttpResponse<String> response = browser.get("/me");
		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(response.headers().firstValue("Location")).hasValueSatisfying((location) -> assertThat(location)
			.endsWith("/login"));
		assertThat(redis.command("EXISTS", new String(key, StandardCharsets.UTF_8))).isEqualTo(0L);
	}

	private static ConfigurableApplicationContext start() {
		SpringApplication application = new SpringApplication(LoginApp.class);
		return application.run("--server.port=0", "--spring.data.redis.host=" + redis.endpoint().host(),
				"--spring.data.redis.port=" + redis.endpoint().port(), "--spring.session.redis.namespace=spring:session",
				"--logging.level.root=WARN");
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	/** A browser: cookies, no automatic redirects, the login form's CSRF token. */
	private record Browser(HttpClient client, CookieManager cookies, int port) {

		Browser(int port) {
			this(new CookieManager(), port);
		}

		private Browser(CookieManager cookies, int port) {
			this(HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build(),
					cookies, port);
		}

		Browser on(int otherPort) {
			CookieManager copy = new CookieManager();
			URI to = URI.create("http://localhost:" + otherPort + "/");
			this.cookies.getCookieStore().getCookies().forEach((cookie) -> copy.getCookieStore().add(to, cookie));
			return new Browser(copy, otherPort);
		}

		void logIn(String user, String password) throws IOException, InterruptedException {
			String page = get("/login").body();
			Matcher csrf = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"").matcher(page);
			assertThat(csrf.find()).as("the login page's CSRF token").isTrue();
			HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(uri("/login"))
				.header("Content-Type", "application/x-www-form-urlencoded")
				.POST(HttpRequest.BodyPublishers
					.ofString("username=" + user + "&password=" + password + "&_csrf=" + csrf.group(1)))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(302);
			assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
					(location) -> assertThat(location).doesNotContain("error"));
		}

		HttpResponse<String> get(String path) throws IOException, InterruptedException {
			return this.client.send(HttpRequest.newBuilder(uri(path)).GET().build(),
					HttpResponse.BodyHandlers.ofString());
		}

		String sessionId() {
			String cookie = this.cookies.getCookieStore()
				.getCookies()
				.stream()
				.filter((candidate) -> candidate.getName().equals("SESSION"))
				.findFirst()
				.orElseThrow()
				.getValue();
			return new String(Base64.getDecoder().decode(cookie), StandardCharsets.UTF_8);
		}

		private URI uri(String path) {
			return URI.create("http://localhost:" + this.port + path);
		}

	}

	/** An item in the shopping cart, an application type in the session ({@code Serializable} only for the JDK comparison). */
	@RedisFormat(FormatKind.JSON)
	public record CartItem(String name, int quantity) implements java.io.Serializable {
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LoginApp {

		@Bean
		SecurityFilterChain security(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.formLogin(Customizer.withDefaults())
				.build();
		}

		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ada").password("{noop}secret").roles("USER").build());
		}

		@Bean
		Shop shop() {
			return new Shop();
		}

	}

	@RestController
	static class Shop {

		@GetMapping("/me")
		String me(java.security.Principal principal) {
			return principal.getName();
		}

		@GetMapping("/cart/add")
		@SuppressWarnings("unchecked")
		String add(@RequestParam String item, HttpSession session) {
			java.util.List<CartItem> cart = (java.util.List<CartItem>) session.getAttribute("cart");
			java.util.List<CartItem> updated = new java.util.ArrayList<>((cart != null) ? cart : java.util.List.of());
			updated.add(new CartItem(item, 1));
			session.setAttribute("cart", updated);
			return updated.size() + " item(s)";
		}

	}

}
