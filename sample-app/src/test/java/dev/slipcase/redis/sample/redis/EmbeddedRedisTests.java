package dev.slipcase.redis.sample.redis;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no {@code spring.data.redis.*} set, the sample app starts its embedded Redis and talks to
 * it.
 */
@SpringBootTest
class EmbeddedRedisTests {

	@Autowired
	private EmbeddedRedisServer server;

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void appTalksToTheEmbeddedRedis() {
		this.redis.opsForValue().set("sample:embedded", "yes");
		assertThat(this.redis.opsForValue().get("sample:embedded")).isEqualTo("yes");
		try (var connection = this.connectionFactory.getConnection()) {
			assertThat(connection.serverCommands().info("server").getProperty("redis_version")).startsWith("6.2.");
			assertThat(connection.serverCommands().info("server").getProperty("tcp_port"))
				.isEqualTo(Integer.toString(this.server.port()));
		}
	}

}
