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
	void setKeepTtlKeepsTheTtlOfAValueWrittenBeforeAnUpgradeFromRedis7() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String key = key(template, 1);
		template.set(key, "x".repeat(200));
		String overflow = template.namespace().ownedKeyPrefix() + "n:0}:1";
		assertThat(redis().exists(overflow)).isOne();
		// what Redis 7 left of set(key, value, ttl): the TTL on the overflow key, none on its marker
		redis().pexpire(overflow, 300_000);
		template.setKeepTtl(key, "small");
		assertThat(template.get(key)).isEqualTo("small");
		assertThat(template.ttlMillis(key)).isBetween(1L, 300_000L);
	}

	@Test
	void runsOnRedis80() {
		assertThat(this.server.info("server", "redis_version")).startsWith("8.0");
		assertThat(templates().supportsFieldExpiry()).isTrue();
	}

}
