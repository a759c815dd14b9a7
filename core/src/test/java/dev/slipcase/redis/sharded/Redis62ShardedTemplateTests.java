package dev.slipcase.redis.sharded;

import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/** The template against Redis 6.2, whose compact hashes are ziplists configured by the ziplist names. */
class Redis62ShardedTemplateTests extends StandaloneShardedTemplateContract {

	@Override
	RedisServer startServer() {
		return RedisServers.startRedis62();
	}

	@Override
	boolean ownsServer() {
		return true;
	}

	@Override
	String compactEncoding() {
		return "ziplist";
	}

	@Test
	void runsOnRedis62WithoutFieldExpiry() {
		assertThat(this.server.version()).startsWith("6.2");
		assertThat(templates().supportsFieldExpiry()).isFalse();
	}

	@Test
	void limitsComeFromTheZiplistSettings() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		assertThat(template.limits().maxEntries())
			.isEqualTo(Integer.parseInt(redis().configGet("hash-max-ziplist-entries").get("hash-max-ziplist-entries")));
		assertThat(template.limits().maxValueBytes())
			.isEqualTo(Integer.parseInt(redis().configGet("hash-max-ziplist-value").get("hash-max-ziplist-value")));
	}

}
