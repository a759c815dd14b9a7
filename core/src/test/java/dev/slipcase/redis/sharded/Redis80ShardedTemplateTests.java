package dev.slipcase.redis.sharded;

import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/** The template against Redis 8.0, which expires hash fields (HPEXPIRE, HSETEX). */
class Redis80ShardedTemplateTests extends StandaloneShardedTemplateContract {

	@Override
	RedisServer startServer() {
		return RedisServers.startRedis80();
	}

	@Override
	boolean ownsServer() {
		return true;
	}

	@Test
	void runsOnRedis80() {
		assertThat(this.server.info("server", "redis_version")).startsWith("8.0");
		assertThat(templates().supportsFieldExpiry()).isTrue();
	}

}
