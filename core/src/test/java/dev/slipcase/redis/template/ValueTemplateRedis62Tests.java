package dev.slipcase.redis.template;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ValueTemplate} on Redis 6.2, the oldest version Slipcase supports: the commands it relies
 * on there ({@code GETDEL}, {@code COPY}, {@code SET ... PX NX}) exist and behave.
 */
class ValueTemplateRedis62Tests {

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> template;

	@BeforeAll
	static void start() {
		redis = RedisServers.startRedis62();
		client = RedisClient.create();
		template = ValueTemplate.create(client, RedisURI.create(redis.endpoint().uri()), Utf8TestFormat.INSTANCE)
			.withChunkSize(16 * 1024);
	}

	@AfterAll
	static void stop() {
		template.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		redis.close();
	}

	@Test
	void runsOnRedis62() {
		assertThat(redis.version()).startsWith("6.2");
	}

	@Test
	void valueOperationsWork() {
		assertThat(template.setIfAbsent("k", "v", Duration.ofSeconds(10))).isTrue();
		assertThat(template.mget(List.of("k", "missing"))).containsExactly("v", null);
		try (ValueLease lease = template.lease("k")) {
			assertThat(lease.size()).isEqualTo(1);
		}
		assertThat(template.getAndDelete("k")).isEqualTo("v");
		assertThat(template.forDatabase(2).incrementBy("n", 2)).isEqualTo(2);
	}

	@Test
	void largeValuesWork() throws Exception {
		byte[] value = new byte[100_000];
		new Random(3).nextBytes(value);
		template.upload("big", new ByteArrayInputStream(value), value.length);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		assertThat(template.download("big", out)).isEqualTo(value.length);
		assertThat(out.toByteArray()).isEqualTo(value);
	}

}
