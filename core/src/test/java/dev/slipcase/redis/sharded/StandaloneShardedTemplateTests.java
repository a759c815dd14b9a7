package dev.slipcase.redis.sharded;

import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.Test;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The template against the shared standalone server (redis-server 7.0 here). */
class StandaloneShardedTemplateTests extends StandaloneShardedTemplateContract {

	@Override
	RedisServer startServer() {
		return RedisServers.shared();
	}

	@Override
	boolean ownsServer() {
		return false;
	}

	@Test
	void serverWithoutHpexpireIsDetected() {
		assertThat(templates().supportsFieldExpiry()).isEqualTo(this.server.isAtLeast(7, 4));
		assertThat(templates().serverVersion()).isEqualTo(this.server.version());
	}

	@Test
	void limitsComeFromTheServersConfiguration() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		Map<String, String> config = redis().configGet("hash-max-listpack-entries", "hash-max-listpack-value");
		assertThat(template.limits().maxEntries()).isEqualTo(Integer.parseInt(config.get("hash-max-listpack-entries")));
		assertThat(template.limits().maxValueBytes()).isEqualTo(Integer.parseInt(config.get("hash-max-listpack-value")));
	}

	@Test
	void templatesOverACallersConnectionLeaveItOpen() {
		try (StatefulRedisConnection<byte[], byte[]> own = this.client.connect(ByteArrayCodec.INSTANCE)) {
			ShardedTemplates borrowed = ShardedTemplates.create(own);
			ShardedTemplate<String> template = borrowed.template(namespace().build(), STRINGS);
			template.set(key(template, 1), "x");
			borrowed.close();
			assertThat(own.isOpen()).isTrue();
			assertThat(own.sync().ping()).isEqualTo("PONG");
		}
	}

	@Test
	void whereConfigIsBlockedTheLimitsMustBeConfigured() {
		try (RedisServer own = RedisServers.start()) {
			own.command("ACL", "SETUSER", "app", "on", ">secret", "~*", "&*", "+@all", "-config");
			RedisClient restricted = RedisClient.create("redis://app:secret@" + own.endpoint().host() + ":"
					+ own.endpoint().port());
			try (ShardedTemplates blocked = ShardedTemplates.create(restricted)) {
				assertThatIllegalStateException().isThrownBy(() -> blocked.template(namespace().build(), STRINGS))
					.withMessageContaining("CONFIG GET failed")
					.withMessageContaining("maxEntries");
				ShardedTemplate<String> template = blocked.template(namespace().maxEntries(256).maxValueBytes(32).build(),
						STRINGS);
				assertThat(template.layout().bucketSize()).isEqualTo(64);
				template.set(key(template, 1), "x".repeat(40));
				assertThat(template.get(key(template, 1))).isEqualTo("x".repeat(40));
				assertThat(own.command("KEYS", "*}:*")).asList().hasSize(1);
			}
			finally {
				restricted.shutdown();
			}
		}
	}

}
