package dev.slipcase.redis.sample;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * The sample app on a random port, talking to the fixture's real Redis
 * ({@code spring.data.redis.host/port}), with a {@link RestTestClient} bound to it. The endpoint
 * test classes extend it, so they share one application context.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
public abstract class SampleWebTests {

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		RedisServer redis = RedisServers.shared();
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	protected RestTestClient client;

	/** The fixture's Redis, for checks that bypass the app. */
	protected static RedisServer redis() {
		return RedisServers.shared();
	}

}
