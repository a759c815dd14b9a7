package dev.slipcase.redis.webflux;

import java.time.Duration;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What every test of the shop over real HTTP shares: the real Redis the app is pointed at, emptied
 * before each test, and a client of the app's port.
 */
abstract class ShopOverHttp {

	static final RedisServer redis = RedisServers.shared();

	@LocalServerPort
	int port;

	WebTestClient http;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@BeforeEach
	void connect() {
		redis.flushAll();
		this.http = WebTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.responseTimeout(Duration.ofSeconds(120))
			.build();
	}

}
