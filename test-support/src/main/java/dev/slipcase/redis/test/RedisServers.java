package dev.slipcase.redis.test;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds or starts a real Redis for a test, in this order:
 * <ol>
 * <li>the server named by {@code SLIPCASE_REDIS_URL} ({@code redis://[:password@]host:port});</li>
 * <li>a {@code redis:7} container, when a Docker engine answers;</li>
 * <li>the {@code redis-server} binary ({@code SLIPCASE_REDIS_SERVER}, else the {@code PATH}) on a
 * free loopback port, in its own temporary directory, with persistence off;</li>
 * <li>otherwise the test fails with a message saying how to get a Redis. Tests that need Redis
 * never skip.</li>
 * </ol>
 * Clusters come from {@code SLIPCASE_REDIS_CLUSTER_URL} (comma-separated seeds) or are started
 * from the local binary with {@code redis-cli --cluster create}.
 * <p>
 * The shared server and cluster are started on first use and stopped when the JVM exits; servers
 * from {@link #start()} and {@link #startCluster()} belong to the caller, who closes them.
 */
public final class RedisServers {

	/** Environment variable (or system property) naming an external server to test against. */
	public static final String URL_VARIABLE = "SLIPCASE_REDIS_URL";

	/** Environment variable (or system property) naming an external cluster's seeds. */
	public static final String CLUSTER_URL_VARIABLE = "SLIPCASE_REDIS_CLUSTER_URL";

	static final String HOW_TO_GET_REDIS = "Install redis-server and redis-tools (Debian/Ubuntu: "
			+ "'apt-get install redis-server redis-tools'; macOS: 'brew install redis'), start a Docker engine "
			+ "(the fixture then runs " + ContainerRedisServer.IMAGE + " with Testcontainers), or set "
			+ URL_VARIABLE + "=redis://host:port to use a running server. " + RedisBinaries.SERVER_VARIABLE
			+ "=/path/to/redis-server selects another binary.";

	private static RedisServer shared;

	private static RedisCluster sharedCluster;

	private RedisServers() {
	}

	/** The server shared by every test in this JVM, started on first use. */
	public static synchronized RedisServer shared() {
		if (shared == null) {
			shared = start();
		}
		return shared;
	}

	/** The cluster shared by every test in this JVM, started on first use. */
	public static synchronized RedisCluster sharedCluster() {
		if (sharedCluster == null) {
			sharedCluster = startCluster();
		}
		return sharedCluster;
	}

	/**
	 * A server of the caller's own, which the caller closes. With {@code SLIPCASE_REDIS_URL} set,
	 * this is the external server, which closing leaves running.
	 * @throws IllegalStateException when no Redis can be had, saying how to get one
	 */
	public static RedisServer start() {
		String url = RedisBinaries.setting(URL_VARIABLE);
		if (url != null) {
			return new ExternalRedisServer(RedisEndpoint.parse(url));
		}
		if (ContainerRedisServer.isDockerAvailable()) {
			return ContainerRedisServer.start();
		}
		Optional<Path> binary = RedisBinaries.server();
		if (binary.isPresent()) {
			return LocalRedisServer.start(binary.get());
		}
		throw new IllegalStateException("No Redis server for the tests: no " + URL_VARIABLE
				+ ", no Docker engine and no redis-server on the PATH. " + HOW_TO_GET_REDIS);
	}

	/**
	 * A server started from a specific {@code redis-server} binary, such as an older version,
	 * which the caller closes.
	 */
	public static RedisServer start(Path binary) {
		return LocalRedisServer.start(binary);
	}

	/**
	 * A Redis 6.2 server of the caller's own, from the binary the {@code embedded-redis} jar ships:
	 * the oldest version Slipcase supports, whose listpack settings are still named "ziplist".
	 */
	public static RedisServer startRedis62() {
		return LocalRedisServer.start(EmbeddedRedisBinary.redis62());
	}

	/**
	 * A Redis 8.0 server of the caller's own (hash-field expiration: {@code HSETEX},
	 * {@code HGETEX}, {@code HGETDEL}), from Debian 13's package; see {@link NewerServerBinaries}
	 * for where the binary comes from.
	 */
	public static RedisServer startRedis80() {
		return LocalRedisServer.start(NewerServerBinaries.redis8());
	}

	/**
	 * A Valkey 8.0 server of the caller's own (no hash-field expiration), from
	 * bookworm-backports; see {@link NewerServerBinaries} for where the binary comes from.
	 */
	public static RedisServer startValkey80() {
		return LocalRedisServer.start(NewerServerBinaries.valkey8());
	}

	/**
	 * A three-master cluster with one replica per master, of the caller's own, for failover tests:
	 * always local processes, which the test can reshard and kill; the caller closes it.
	 * @throws IllegalStateException when no redis-server and redis-cli are on the PATH
	 */
	public static RedisCluster startClusterWithReplicas() {
		Path server = RedisBinaries.server()
			.orElseThrow(() -> new IllegalStateException("No redis-server on the PATH for a cluster with replicas. "
					+ HOW_TO_GET_REDIS));
		Path cli = RedisBinaries.cli(server)
			.orElseThrow(() -> new IllegalStateException("No redis-cli next to " + server + " or on the PATH. "
					+ HOW_TO_GET_REDIS));
		return LocalRedisCluster.start(server, cli, 1);
	}

	/**
	 * A three-master cluster of the caller's own, which the caller closes.
	 * @throws IllegalStateException when no cluster can be had, saying how to get one
	 */
	public static RedisCluster startCluster() {
		String urls = RedisBinaries.setting(CLUSTER_URL_VARIABLE);
		if (urls != null) {
			return new ExternalRedisCluster(urls);
		}
		Optional<Path> server = RedisBinaries.server();
		if (server.isEmpty()) {
			throw new IllegalStateException("No Redis Cluster for the tests: the cluster fixture starts local "
					+ "redis-server processes and none is on the PATH (a Docker engine alone is not enough), and "
					+ CLUSTER_URL_VARIABLE + " is not set. " + HOW_TO_GET_REDIS);
		}
		Path cli = RedisBinaries.cli(server.get())
			.orElseThrow(() -> new IllegalStateException("No redis-cli next to " + server.get()
					+ " or on the PATH to create the cluster with. " + HOW_TO_GET_REDIS));
		return LocalRedisCluster.start(server.get(), cli);
	}

}
