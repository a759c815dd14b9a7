package dev.slipcase.redis.autoconfigure.session;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Boot web app with Spring Security's form login and Spring Session on a real Redis, over
 * real HTTP: the logged-in session is stored through Slipcase (JSON readable in Redis), a second
 * app on the same Redis reads it, it is smaller than with JDK serialization, and a session Slipcase
 * cannot read is treated as absent.
 */
class SessionLoginTests extends TwoLoginApps {

	@Override
	String[] arguments() {
		return new String[0];
	}

	@Test
	void aLoggedInSessionIsStoredAsJsonAndReadByAnotherApp() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		browser.logIn("ada", "secret");
		assertThat(browser.get("/cart/add?item=book").body()).isEqualTo("1 item(s)");
		assertThat(browser.get("/me").body()).isEqualTo("ada");

		String sessionKey = "spring:session:sessions:" + browser.sessionId();
		String context = (String) redis.command("HGET", sessionKey, "sessionAttr:SPRING_SECURITY_CONTEXT");
		assertThat(context).startsWith("{\"@class\":\"org.springframework.security.core.context.SecurityContextImpl\"")
			.contains("\"ada\"")
			.doesNotContain("secret");
		assertThat((String) redis.command("HGET", sessionKey, "sessionAttr:cart")).contains("book");

		assertTheSecondAppCarriesOnTheSession(browser);
	}

	@Test
	void theSessionIsSmallerThanWithJdkSerialization() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		browser.logIn("ada", "secret");
		browser.get("/cart/add?item=book");
		RedisSerializer<Object> slipcase = this.first.getBean("springSessionDefaultRedisSerializer",
				SessionValueSerializer.class);
		JdkSerializationRedisSerializer jdk = new JdkSerializationRedisSerializer();
		long slipcaseBytes = 0;
		long jdkBytes = 0;
		for (Map.Entry<byte[], byte[]> field : sessionHash(browser).entrySet()) {
			Object value = slipcase.deserialize(field.getValue());
			assertThat(value).isNotSameAs(SessionValueSerializer.UNREADABLE);
			slipcaseBytes += field.getValue().length;
			jdkBytes += jdk.serialize(value).length;
		}
		double ratio = (double) slipcaseBytes / jdkBytes;
		System.out.printf("Logged-in session values: Slipcase JSON %d bytes, JDK serialization %d bytes, ratio %.2f%n",
				slipcaseBytes, jdkBytes, ratio);
		assertThat(ratio).isLessThan(1.0);
	}

	@Test
	void aSessionWithAValueSlipcaseCannotReadIsAbsentNotAnError() throws Exception {
		LoginBrowser browser = browserOnTheFirstApp();
		browser.logIn("ada", "secret");
		byte[] key = sessionKey(browser);
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

}
