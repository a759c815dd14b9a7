package dev.slipcase.redis.autoconfigure.session;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.web.savedrequest.DefaultSavedRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code slipcase.redis.session.format=fory} in a real Boot web app with Spring Security's form
 * login, over real HTTP against a real Redis: every session value a login flow stores (the saved
 * request of a page asked for before logging in, the last failed login's exception, the security
 * context, the cart) is written in Fory, read back by the app and by a second app on the same Redis.
 */
class ForySessionLoginTests extends TwoLoginApps {

	@Override
	String[] arguments() {
		return new String[] { "--slipcase.redis.session.format=fory" };
	}

	@Test
	void aPageAskedForBeforeLoggingInIsSavedAndTheLoginReturnsToIt() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		HttpResponse<String> beforeLogin = browser.get("/cart/add?item=book");
		assertThat(beforeLogin.statusCode()).isEqualTo(302);
		assertThat(sessionValue(browser, "SPRING_SECURITY_SAVED_REQUEST")).isInstanceOf(DefaultSavedRequest.class);

		HttpResponse<String> login = browser.submitLogin("ada", "secret");
		assertThat(login.statusCode()).isEqualTo(302);
		String savedPage = login.headers().firstValue("Location").orElseThrow();
		assertThat(savedPage).contains("/cart/add?item=book");
		assertThat(browser.get(savedPage.substring(savedPage.indexOf("/cart"))).body()).isEqualTo("1 item(s)");

		byte[] context = rawSessionValue(browser, "SPRING_SECURITY_CONTEXT");
		assertThat(context[0] & 0xFF).isEqualTo(FormatHeader.MARKER);
		assertThat(context[1]).isEqualTo((byte) FormatHeader.FORY);
		assertThat(sessionValue(browser, "SPRING_SECURITY_CONTEXT")).isInstanceOf(SecurityContextImpl.class);

		assertTheSecondAppCarriesOnTheSession(browser);
	}

	@Test
	void aFailedLoginKeepsItsErrorInTheSessionAndTheNextOneSucceeds() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		HttpResponse<String> failed = browser.submitLogin("ada", "wrong");
		assertThat(failed.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).endsWith("/login?error"));
		assertThat(sessionValue(browser, "SPRING_SECURITY_LAST_EXCEPTION")).isInstanceOf(BadCredentialsException.class);
		// the failure's message alone: never the password the login submitted, nor a stack trace
		assertThat(new String(rawSessionValue(browser, "SPRING_SECURITY_LAST_EXCEPTION"), StandardCharsets.ISO_8859_1))
			.doesNotContain("wrong")
			.doesNotContain("ProviderManager");
		// the other app reads the session with the exception in it (an unreadable one would be deleted)
		assertThat(theSameCookiesOnTheSecondApp(browser).get("/login?error").body()).contains("Invalid credentials");
		assertThat(redis.command("EXISTS", "spring:session:sessions:" + browser.sessionId())).isEqualTo(1L);

		browser.logIn("ada", "secret");
		assertThat(browser.get("/me").body()).isEqualTo("ada");
	}

	@Test
	void theSessionIsSmallerThanWithJsonOrJdkSerialization() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		browser.logIn("ada", "secret");
		browser.get("/cart/add?item=book");
		SlipcaseSerializerFamily family = this.first.getBean(SlipcaseSerializerFamily.class);
		RedisSerializer<Object> json = SlipcaseRedisSerializer.of(
				SelfDescribingFormat.builder(SessionFormats.json(family, getClass().getClassLoader())).build(),
				Object.class, family.allocator());
		JdkSerializationRedisSerializer jdk = new JdkSerializationRedisSerializer();
		long foryBytes = 0;
		long jsonBytes = 0;
		long jdkBytes = 0;
		for (Map.Entry<byte[], byte[]> field : sessionHash(browser).entrySet()) {
			Object value = foryValues().deserialize(field.getValue());
			assertThat(value).isNotSameAs(SessionValueSerializer.UNREADABLE);
			foryBytes += field.getValue().length;
			jsonBytes += json.serialize(value).length;
			jdkBytes += jdk.serialize(value).length;
		}
		System.out.printf("Logged-in session values: Slipcase Fory %d bytes, Slipcase JSON %d bytes, "
				+ "JDK serialization %d bytes%n", foryBytes, jsonBytes, jdkBytes);
		assertThat(foryBytes).isLessThan(jsonBytes).isLessThan(jdkBytes);
	}

	private RedisSerializer<Object> foryValues() {
		return this.first.getBean("springSessionDefaultRedisSerializer", SessionValueSerializer.class);
	}

	private Object sessionValue(LoginBrowser browser, String attribute) {
		Object value = foryValues().deserialize(rawSessionValue(browser, attribute));
		assertThat(value).isNotSameAs(SessionValueSerializer.UNREADABLE);
		return value;
	}

	private byte[] rawSessionValue(LoginBrowser browser, String attribute) {
		byte[] value = sessionHash(browser).entrySet()
			.stream()
			.filter((field) -> new String(field.getKey(), StandardCharsets.UTF_8).equals("sessionAttr:" + attribute))
			.map(Map.Entry::getValue)
			.findFirst()
			.orElse(null);
		assertThat(value).as("the session's " + attribute).isNotNull();
		return value;
	}

}
