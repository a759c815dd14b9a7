package dev.slipcase.redis.sharded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;

/** The template against Redis 6.2, whose compact hashes are ziplists configured by the ziplist names. */
class Redis62ShardedTemplateTests extends ShardedTemplateContract {

	private RedisServer server;

	private RedisClient client;

	private StatefulRedisConnection<String, String> connection;

	private ShardedTemplates templates;

	@BeforeAll
	void start() {
		this.server = RedisServers.startRedis62();
		this.client = RedisClient.create(this.server.endpoint().uri());
		this.connection = this.client.connect();
		this.templates = ShardedTemplates.create(this.client);
	}

	@AfterAll
	void stop() {
		this.templates.close();
		this.connection.close();
		this.client.shutdown();
		this.server.close();
	}

	@Override
	ShardedTemplates templates() {
		return this.templates;
	}

	@Override
	RedisClusterCommands<String, String> redis() {
		return this.connection.sync();
	}

	@Override
	String compactEncoding() {
		return "ziplist";
	}

	@Test
	void runsOnRedis62WithoutFieldExpiry() {
		assertThat(this.server.version()).startsWith("6.2");
		assertThat(this.templates.supportsFieldExpiry()).isFalse();
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
