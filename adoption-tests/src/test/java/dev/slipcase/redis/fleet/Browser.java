package dev.slipcase.redis.fleet;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user's browser over real HTTP: keeps the {@code SESSION} cookie whichever instance set it (a
 * load balancer sends each request to any instance), follows no redirect, and logs in through the
 * form login's page.
 */
final class Browser {

	private static final Pattern SESSION_COOKIE = Pattern.compile("SESSION=([^;]*)");

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

	private final HttpClient http = HttpClient.newBuilder()
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private String session;

	/** One response: its status, its redirect target (or ""), its body. */
	record Page(int status, String location, String body) {

		boolean isLoginRedirect() {
			return this.status == 302 && this.location.contains("/login");
		}

	}

	Page get(int port, String path) {
		return send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET());
	}

	/** Opens a protected page, is sent to the login form, logs in as ada and comes back to it. */
	Page logIn(int port, String path) {
		Page denied = get(port, path);
		if (!denied.isLoginRedirect()) {
			throw new IllegalStateException("expected a redirect to the login page, got " + denied);
		}
		Page form = get(port, "/login");
		Matcher csrf = CSRF.matcher(form.body());
		if (!csrf.find()) {
			throw new IllegalStateException("no CSRF token on the login page: " + form);
		}
		String body = "username=ada&password=secret&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8);
		Page loggedIn = send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/login"))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
		if (loggedIn.status() != 302 || loggedIn.isLoginRedirect()) {
			throw new IllegalStateException("login failed: " + loggedIn);
		}
		return get(port, path);
	}

	/** The session id the browser holds, as Spring Session decodes its cookie. */
	String sessionId() {
		return new String(java.util.Base64.getDecoder().decode(this.session), StandardCharsets.UTF_8);
	}

	private Page send(HttpRequest.Builder request) {
		if (this.session != null) {
			request.header("Cookie", "SESSION=" + this.session);
		}
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			for (String cookie : response.headers().allValues("Set-Cookie")) {
				Matcher matcher = SESSION_COOKIE.matcher(cookie);
				if (matcher.find()) {
					this.session = matcher.group(1).isEmpty() ? null : matcher.group(1);
				}
			}
			return new Page(response.statusCode(), response.headers().firstValue("Location").orElse(""),
					response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
