package dev.slipcase.redis.test;

import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Finds or starts a real Redis for a test, in this order:
 * <ol>
 * <li>the server named by {@code SLIPCASE_REDIS_URL} ({@code redis://[:password@]host:port});</li>
 * <li>a {@code redis:7} container, when a Docker engine answers;</li>
 * <li>the {@code redis-server} binary ({@code SLIPCASE_REDIS_SERVER}, else the {@code PATH}, else
 * Debian 12's Redis 7.0 fetched into the cache) on a free loopback port, in its own temporary
 * directory, with persistence off;</li>
 * <li>when even the fetch fails, the test fails with a message saying what failed and how else to
 * get a Redis. Tests that need Redis never skip.</li>
 * </ol>
 * With {@link SystemBinaries#IGNORE_VARIABLE} set, the Docker engine and the {@code PATH} are
 * skipped. Clusters come from {@code SLIPCASE_REDIS_CLUSTER_URL} (comma-separated seeds) or are
 * started from the local binary with {@code redis-cli --cluster create}.
 * <p>
 * The shared server and cluster are started on first use and stopped when the JVM exits; servers
 * from {@link #start()} and {@link #startCluster()} belong to the caller, who closes them.
 */
public final class RedisServers {

	/** Environment variable (or system property) naming an external server to test against. */
	public static final String URL_VARIABLE = "SLIPCASE_REDIS_URL";

	/** Environment variable (or system property) naming an external cluster's seeds. */
	public static final String CLUSTER_URL_VARIABLE = "SLIPCASE_REDIS_CLUSTER_URL";

	static final String HOW_TO_GET_REDIS = "Without a redis-server on the PATH the fixture fetches Debian 12's "
			+ "Redis 7.0 into " + SystemBinaries.cache() + "/servers with .ci/fetch-redis (it needs apt-get and the "
			+ "network to Debian's archive); or install redis-server and redis-tools, start a Docker engine, set "
			+ URL_VARIABLE + "=redis://host:port to use a running server, or " + RedisBinaries.SERVER_VARIABLE
			+ "=/path/to/redis-server to select another binary.";

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
		if (!SystemBinaries.ignored() && ContainerRedisServer.isDockerAvailable()) {
			return ContainerRedisServer.start();
		}
		return LocalRedisServer.start(serverBinary());
	}

	/**
	 * The {@code redis-server} binary the fixture starts local servers from: the one named by
	 * {@code SLIPCASE_REDIS_SERVER}, else the {@code PATH}'s, else a fetched Redis 7.0, for tests
	 * that start a server process of their own (with a sentinel, or to {@code kill -9} it).
	 * @throws IllegalStateException when none can be had, saying what failed and how to get one
	 */
	public static Path serverBinary() {
		try {
			return RedisBinaries.server();
		}
		catch (IllegalStateException | UncheckedIOException ex) {
			throw new IllegalStateException("No Redis server for the tests: " + ex.getMessage() + " "
					+ HOW_TO_GET_REDIS, ex);
		}
	}

	/** The {@code redis-benchmark} that matches {@link #serverBinary()}. */
	public static Path benchmarkBinary() {
		return RedisBinaries.benchmark(serverBinary());
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
	 * {@code HGETEX}, {@code HGETDEL}), from Debian 13's package; see {@link FetchedServerBinaries}
	 * for where the binary comes from.
	 */
	public static RedisServer startRedis80() {
		return LocalRedisServer.start(FetchedServerBinaries.redis8());
	}

	/**
	 * A Valkey 8.0 server of the caller's own (no hash-field expiration), from
	 * bookworm-backports; see {@link FetchedServerBinaries} for where the binary comes from.
	 */
	public static RedisServer startValkey80() {
		return LocalRedisServer.start(FetchedServerBinaries.valkey8());
	}

	/**
	 * A Valkey 9.1 server of the caller's own, from Debian's sid package: it has {@code HPEXPIRE}
	 * and {@code HSETEX}, but converts a hash to hashtable encoding the first time one of its fields
	 * gets a TTL (valkey-io/valkey#2618); see {@link FetchedServerBinaries}.
	 */
	public static RedisServer startValkey91() {
		return LocalRedisServer.start(FetchedServerBinaries.valkey9());
	}

	/** The Redis 8.0 binary {@link #startRedis80()} starts, for tests that start it their own way. */
	public static Path redis80Binary() {
		return FetchedServerBinaries.redis8();
	}

	/** The Valkey 9.1 binary {@link #startValkey91()} starts, for tests that start it their own way. */
	public static Path valkey91Binary() {
		return FetchedServerBinaries.valkey9();
	}

	/**
	 * A local server from {@code binary} that a test can crash and restart without losing what it
	 * acknowledged, of the caller's own; see {@link DurableRedisServer}.
	 */
	public static DurableRedisServer startDurable(Path binary) {
		return DurableRedisServer.start(binary);
	}

	/**
	 * A three-master cluster with one replica per master, of the caller's own, for failover tests:
	 * always local processes, which the test can reshard and kill; the caller closes it.
	 * @throws IllegalStateException when no redis-server can be had, saying what failed
	 */
	public static RedisCluster startClusterWithReplicas() {
		Path server = serverBinary();
		return LocalRedisCluster.start(server, RedisBinaries.cli(server), 1);
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
		Path server = serverBinary();
		return LocalRedisCluster.start(server, RedisBinaries.cli(server));
	}

}
