package dev.slipcase.redis.sharded;

import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/** The template against Valkey 8.0, which speaks Redis 7.2's protocol and expires no hash fields. */
class Valkey80ShardedTemplateTests extends StandaloneShardedTemplateContract {

	@Override
	RedisServer startServer() {
		return RedisServers.startValkey80();
	}

	@Override
	boolean ownsServer() {
		return true;
	}

	@Test
	void runsOnValkey80() {
		assertThat(this.server.info("server", "valkey_version")).startsWith("8.0");
		assertThat(templates().supportsFieldExpiry()).isFalse();
	}

}
