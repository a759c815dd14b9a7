package dev.slipcase.redis.template;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ValueTemplate} from a Sentinel-configured {@link LettuceConnectionFactory}: the template
 * finds the master through a real {@code redis-server --sentinel} and uses the factory's database.
 * Needs {@code redis-server} on the {@code PATH} (or {@code SLIPCASE_REDIS_SERVER}), like the
 * cluster tests.
 */
class ValueTemplateSentinelTests {

	private static RedisServer master;

	private static Path directory;

	private static Process sentinel;

	private static int sentinelPort;

	@BeforeAll
	static void start() throws Exception {
		master = RedisServers.start();
		directory = Files.createTempDirectory("slipcase-sentinel");
		try (ServerSocket socket = new ServerSocket(0)) {
			sentinelPort = socket.getLocalPort();
		}
		Path config = directory.resolve("sentinel.conf");
		Files.writeString(config, "port " + sentinelPort + "\nbind 127.0.0.1\ndir " + directory + "\n"
				+ "sentinel monitor mymaster " + master.endpoint().host() + " " + master.endpoint().port() + " 1\n");
		String binary = RedisServers.serverBinary().toString();
		sentinel = new ProcessBuilder(binary, config.toString(), "--sentinel").directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(directory.resolve("sentinel.log").toFile())
			.start();
		awaitMasterKnown();
	}

	@AfterAll
	static void stop() throws IOException {
		if (sentinel != null) {
			sentinel.destroy();
		}
		master.close();
		try (Stream<Path> files = Files.walk(directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
	}

	@Test
	void findsTheMasterThroughSentinelAndUsesTheFactorysDatabase() {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration("mymaster",
				Set.of("127.0.0.1:" + sentinelPort));
		configuration.setDatabase(4);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		RedisClient direct = RedisClient.create();
		try (ValueTemplate<String> template = ValueTemplate.create(factory, Utf8TestFormat.INSTANCE);
				StatefulRedisConnection<String, String> onMaster = direct
					.connect(RedisURI.create(master.endpoint().uri() + "/4"))) {
			template.set("k", "via sentinel");
			assertThat(onMaster.sync().get("k")).isEqualTo("via sentinel");
			template.forDatabase(5).set("k", "five");
			assertThat(template.get("k")).isEqualTo("via sentinel");
		}
		finally {
			direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			factory.destroy();
		}
	}

	private static void awaitMasterKnown() throws InterruptedException {
		RedisClient client = RedisClient.create();
		try {
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			while (true) {
				try (StatefulRedisSentinelConnection<String, String> connection = client
					.connectSentinel(RedisURI.create("redis://127.0.0.1:" + sentinelPort))) {
					if (connection.sync().getMasterAddrByName("mymaster") != null) {
						return;
					}
				}
				catch (RuntimeException ex) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("Sentinel did not start; see " + directory, ex);
					}
				}
				Thread.sleep(50);
			}
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

}
