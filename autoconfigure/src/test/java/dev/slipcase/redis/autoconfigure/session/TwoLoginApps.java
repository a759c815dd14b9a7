package dev.slipcase.redis.autoconfigure.session;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two {@link LoginApp}s on one real Redis, emptied and started before each test and stopped after
 * it, for tests of the sessions they share.
 */
abstract class TwoLoginApps {

	static final RedisServer redis = RedisServers.shared();

	ConfigurableApplicationContext first;

	ConfigurableApplicationContext second;

	/** The arguments both apps start with, beyond {@link LoginApp#start}'s own. */
	abstract String[] arguments();

	@BeforeEach
	void startTwoApps() {
		redis.command("FLUSHDB");
		this.first = LoginApp.start(redis, arguments());
		this.second = LoginApp.start(redis, arguments());
	}

	@AfterEach
	void stopApps() {
		this.first.close();
		this.second.close();
	}

	/** A browser on the first app, with no cookies yet. */
	LoginBrowser browserOnTheFirstApp() {
		return new LoginBrowser(LoginApp.port(this.first));
	}

	/** {@code browser}'s cookies on the second app. */
	LoginBrowser theSameCookiesOnTheSecondApp(LoginBrowser browser) {
		return browser.on(LoginApp.port(this.second));
	}

	/**
	 * Checks that the second app carries on {@code browser}'s session, which the first logged in as
	 * {@code ada} with one item in the cart: it knows the user and adds a second item.
	 */
	void assertTheSecondAppCarriesOnTheSession(LoginBrowser browser) throws Exception {
		LoginBrowser onTheSecondApp = theSameCookiesOnTheSecondApp(browser);
		assertThat(onTheSecondApp.get("/me").body()).isEqualTo("ada");
		assertThat(onTheSecondApp.get("/cart/add?item=pen").body()).isEqualTo("2 item(s)");
	}

	/** The Redis key of {@code browser}'s session. */
	static byte[] sessionKey(LoginBrowser browser) {
		return ("spring:session:sessions:" + browser.sessionId()).getBytes(StandardCharsets.UTF_8);
	}

	/** Every field of {@code browser}'s session hash, which must exist. */
	Map<byte[], byte[]> sessionHash(LoginBrowser browser) {
		try (RedisConnection connection = this.first.getBean(RedisConnectionFactory.class).getConnection()) {
			Map<byte[], byte[]> fields = connection.hashCommands().hGetAll(sessionKey(browser));
			assertThat(fields).isNotEmpty();
			return fields;
		}
	}

}
