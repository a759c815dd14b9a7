package dev.slipcase.redis.sample.redis;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code spring.data.redis.*} set, the sample app uses that server and starts no embedded
 * one.
 */
@SpringBootTest
class ConfiguredRedisTests {

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		RedisServer redis = RedisServers.shared();
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	private ApplicationContext context;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void appUsesTheConfiguredRedis() {
		assertThat(this.context.getBeansOfType(EmbeddedRedisServer.class)).isEmpty();
		this.redis.opsForValue().set("sample:configured", "yes");
		assertThat(RedisServers.shared().command("GET", "sample:configured")).isEqualTo("yes");
	}

}
