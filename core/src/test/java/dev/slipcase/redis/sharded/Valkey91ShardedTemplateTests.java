package dev.slipcase.redis.sharded;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The template against Valkey 9.1, which has {@code HPEXPIRE} and {@code HSETEX} but converts a hash
 * to hashtable encoding the first time one of its fields gets a TTL (valkey-io/valkey#2618): the
 * templates find that by trying it, and keep TTL'd values out of buckets as on a server without
 * field TTLs, so no write path flips a bucket (the contract checks the encoding after each).
 */
class Valkey91ShardedTemplateTests extends StandaloneShardedTemplateContract {

	@Override
	RedisServer startServer() {
		return RedisServers.startValkey91();
	}

	@Override
	boolean ownsServer() {
		return true;
	}

	@Test
	void runsOnValkey91WithoutFieldTtlsBecauseTheyConvertTheHash() {
		assertThat(this.server.info("server", "valkey_version")).startsWith("9.1");
		assertThat((Object) this.server.command("COMMAND", "INFO", "hsetex")).asList().first().isNotNull();
		assertThat(templates().supportsFieldExpiry()).isFalse();
		assertThat(redis().keys("slipcase:probe:*")).as("the probe's scratch key is gone").isEmpty();
	}

	@Test
	void aValueWithATtlLeavesItsBucketCompactAndStillExpires() throws InterruptedException {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "one");
		template.set(key(template, 2), "two", Duration.ofMillis(300));
		template.set(key(template, 3), "three");
		template.expire(key(template, 3), Duration.ofMillis(300));
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(template.ttlMillis(key(template, 2))).isBetween(1L, 300L);
		Thread.sleep(600);
		assertThat(template.get(key(template, 2))).isNull();
		assertThat(template.get(key(template, 3))).isNull();
		assertThat(template.get(key(template, 1))).isEqualTo("one");
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
	}

}
