package dev.slipcase.redis.test;

import java.util.Arrays;
import java.util.List;

/**
 * A cluster the fixture did not start, named by {@code SLIPCASE_REDIS_CLUSTER_URL} as a
 * comma-separated list of {@code redis://host:port} seeds. Closing it does nothing.
 */
final class ExternalRedisCluster implements RedisCluster {

	private final List<RedisServer> nodes;

	ExternalRedisCluster(String urls) {
		this.nodes = Arrays.stream(urls.split(","))
			.map(String::trim)
			.filter((url) -> !url.isEmpty())
			.map((url) -> (RedisServer) new ExternalRedisServer(RedisEndpoint.parse(url)))
			.toList();
		if (this.nodes.isEmpty()) {
			throw new IllegalArgumentException(RedisServers.CLUSTER_URL_VARIABLE + " names no node");
		}
	}

	@Override
	public List<RedisServer> nodes() {
		return this.nodes;
	}

	@Override
	public void close() {
	}

}
