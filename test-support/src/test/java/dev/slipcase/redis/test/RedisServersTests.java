package dev.slipcase.redis.test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisServers}' standalone servers.
 */
@ExtendWith(RedisExtension.class)
class RedisServersTests {

	@Test
	void sharedServerAnswersPingFromARealClient(RedisServer redis) {
		RedisClient client = RedisClient.create(redis.endpoint().uri());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			assertThat(connection.sync().ping()).isEqualTo("PONG");
			connection.sync().set("slipcase:fixture", "value");
			assertThat(connection.sync().get("slipcase:fixture")).isEqualTo("value");
		}
		finally {
			client.shutdown();
		}
	}

	@Test
	void sharedServerIsTheSameForEveryCaller(RedisServer redis) {
		assertThat(RedisServers.shared()).isSameAs(redis);
	}

	@Test
	void sharedServerReportsItsVersion(RedisServer redis) {
		assertThat(redis.version()).matches("\\d+\\.\\d+\\.\\d+.*");
		assertThat(redis.isAtLeast(2, 0)).isTrue();
		assertThat(redis.isAtLeast(99, 0)).isFalse();
	}

	@Test
	void callsCountsTheRunsOfOneCommandSinceTheStatsWereReset() {
		try (RedisServer server = RedisServers.start(RedisServers.serverBinary())) {
			server.command("SET", "k", "value");
			server.command("CONFIG", "RESETSTAT");
			assertThat(server.calls("get")).isZero();
			server.command("GET", "k");
			server.command("GET", "k");
			server.command("GETRANGE", "k", "0", "1");
			assertThat(server.calls("get")).isEqualTo(2);
			assertThat(server.calls("GET")).isEqualTo(2);
			assertThat(server.calls("getrange")).isEqualTo(1);
		}
	}

	@Test
	void awaitRoleReturnsOnceAReplicaHasTakenItsRole() {
		// local processes, so that the replica reaches the master at the address the test sees
		try (RedisServer master = RedisServers.start(RedisServers.serverBinary());
				RedisServer replica = RedisServers.start(RedisServers.serverBinary())) {
			assertThat(replica.role()).isEqualTo("master");
			replica.command("REPLICAOF", master.endpoint().host(), Integer.toString(master.endpoint().port()));
			replica.awaitRole("slave", Duration.ofSeconds(10));
			assertThat(replica.role()).isEqualTo("slave");
			assertThatIllegalStateException().isThrownBy(() -> master.awaitRole("slave", Duration.ofMillis(100)))
				.withMessageContaining("did not become slave within PT0.1S");
		}
	}

	@Test
	void serversStartedInParallelGetDifferentPorts() {
		CompletableFuture<RedisServer> first = CompletableFuture.supplyAsync(RedisServers::start);
		CompletableFuture<RedisServer> second = CompletableFuture.supplyAsync(RedisServers::start);
		try (RedisServer one = first.join(); RedisServer two = second.join()) {
			assertThat(one.endpoint()).isNotEqualTo(two.endpoint());
			assertThat(one.isRunning()).isTrue();
			assertThat(two.isRunning()).isTrue();
			one.command("SET", "owner", "one");
			assertThat(two.command("GET", "owner")).isNull();
		}
	}

	@Test
	void closedServerIsGone() {
		LocalRedisServer server = (LocalRedisServer) RedisServers.start(RedisServers.serverBinary());
		int registered = StartedServers.count();
		assertThat(server.isRunning()).isTrue();
		assertThat(Files.isDirectory(server.directory())).isTrue();

		server.close();

		assertThat(server.process().isAlive()).isFalse();
		assertThat(server.isRunning()).isFalse();
		assertThat(Files.exists(server.directory())).isFalse();
		assertThat(StartedServers.count()).isEqualTo(registered - 1);
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(server.endpoint().host(), server.endpoint().port()), 500);
			}
		});
	}

	@Test
	void redis62StartsFromTheEmbeddedRedisBinary() {
		try (RedisServer redis62 = RedisServers.startRedis62()) {
			assertThat(redis62.version()).startsWith("6.2.");
			assertThat(redis62.command("CONFIG", "GET", "hash-max-ziplist-entries")).asList().hasSize(2);
		}
	}

	@Test
	void redis80StartsWithHashFieldExpiration() {
		try (RedisServer redis80 = RedisServers.startRedis80()) {
			assertThat(redis80.version()).startsWith("8.0.");
			assertThat(redis80.command("HSETEX", "h", "PX", "60000", "FIELDS", "1", "f", "v")).isEqualTo(1L);
			assertThat(redis80.command("HPTTL", "h", "FIELDS", "1", "f")).asList().hasSize(1);
		}
	}

	@Test
	void valkey80StartsWithoutHashFieldExpiration() {
		try (RedisServer valkey80 = RedisServers.startValkey80()) {
			assertThat(valkey80.info("server", "valkey_version")).startsWith("8.0.");
			assertThatExceptionOfType(Exception.class)
				.isThrownBy(() -> valkey80.command("HSETEX", "h", "PX", "60000", "FIELDS", "1", "f", "v"));
		}
	}

	@Test
	void valkey91StartsWithHashFieldExpirationThatConvertsTheHash() {
		try (RedisServer valkey91 = RedisServers.startValkey91()) {
			assertThat(valkey91.info("server", "valkey_version")).startsWith("9.1.");
			valkey91.command("HSET", "h", "a", "1", "b", "2");
			assertThat(valkey91.command("OBJECT", "ENCODING", "h")).isEqualTo("listpack");
			assertThat(valkey91.command("HPEXPIRE", "h", "60000", "FIELDS", "1", "a")).asList().containsExactly(1L);
			assertThat(valkey91.command("OBJECT", "ENCODING", "h")).isEqualTo("hashtable");
		}
	}

	@Test
	void externalUrlIsParsed() {
		RedisEndpoint endpoint = RedisEndpoint.parse("redis://:secret@redis.example:6380/2");
		assertThat(endpoint.host()).isEqualTo("redis.example");
		assertThat(endpoint.port()).isEqualTo(6380);
		assertThat(endpoint.password()).isEqualTo("secret");
		assertThat(endpoint.uri()).isEqualTo("redis://:secret@redis.example:6380");
		assertThat(RedisEndpoint.parse("redis://localhost").port()).isEqualTo(6379);
	}

	@Test
	void externalUrlWithAnotherSchemeIsRefused() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> RedisEndpoint.parse("http://localhost:6379"))
			.withMessageContaining("redis://");
	}

	@Test
	void withTheSystemsBinariesIgnoredTheServerIsDebian12sRedis70FetchedIntoTheCache() {
		System.setProperty(SystemBinaries.IGNORE_VARIABLE, "true");
		try {
			Path binary = RedisServers.serverBinary();
			assertThat(binary).startsWith(SystemBinaries.cache()).endsWith(Path.of("redis-7", "redis-server"));
			try (RedisServer fetched = RedisServers.start()) {
				assertThat(fetched).isInstanceOf(LocalRedisServer.class);
				assertThat(fetched.version()).startsWith("7.0.");
				fetched.command("SET", "fetched", "yes");
				assertThat(fetched.command("GET", "fetched")).isEqualTo("yes");
			}
			assertThat(RedisServers.benchmarkBinary()).isEqualTo(binary.resolveSibling("redis-benchmark"));
		}
		finally {
			System.clearProperty(SystemBinaries.IGNORE_VARIABLE);
		}
	}

	@Test
	void missingServerMessageSaysHowToGetOne() {
		assertThat(RedisServers.HOW_TO_GET_REDIS).contains(".ci/fetch-redis")
			.contains("redis-server and redis-tools")
			.contains("Docker")
			.contains(RedisServers.URL_VARIABLE)
			.contains(RedisBinaries.SERVER_VARIABLE);
	}

}
