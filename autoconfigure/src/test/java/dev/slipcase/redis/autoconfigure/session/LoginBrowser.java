package dev.slipcase.redis.autoconfigure.session;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A browser: cookies, no automatic redirects, the login form's CSRF token. */
record LoginBrowser(HttpClient client, CookieManager cookies, int port) {

	LoginBrowser(int port) {
		this(new CookieManager(), port);
	}

	private LoginBrowser(CookieManager cookies, int port) {
		this(HttpClient.newBuilder().cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build(),
				cookies, port);
	}

	LoginBrowser on(int otherPort) {
		CookieManager copy = new CookieManager();
		URI to = URI.create("http://localhost:" + otherPort + "/");
		this.cookies.getCookieStore().getCookies().forEach((cookie) -> copy.getCookieStore().add(to, cookie));
		return new LoginBrowser(copy, otherPort);
	}

	/** Logs in through the form, which must accept the password. */
	void logIn(String user, String password) throws IOException, InterruptedException {
		HttpResponse<String> response = submitLogin(user, password);
		assertThat(response.statusCode()).isEqualTo(302);
		assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).doesNotContain("error"));
	}

	/** Fetches the login page and posts its form with its CSRF token; the response is a redirect. */
	HttpResponse<String> submitLogin(String user, String password) throws IOException, InterruptedException {
		String page = get("/login").body();
		Matcher csrf = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"").matcher(page);
		assertThat(csrf.find()).as("the login page's CSRF token").isTrue();
		return this.client.send(HttpRequest.newBuilder(uri("/login"))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers
				.ofString("username=" + user + "&password=" + password + "&_csrf=" + csrf.group(1)))
			.build(), HttpResponse.BodyHandlers.ofString());
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
