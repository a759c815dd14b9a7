package dev.slipcase.redis.test;

/**
 * A server the fixture did not start, named by {@code SLIPCASE_REDIS_URL}. Closing it does
 * nothing: its owner keeps it running.
 */
final class ExternalRedisServer implements RedisServer {

	private final RedisEndpoint endpoint;

	ExternalRedisServer(RedisEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	@Override
	public RedisEndpoint endpoint() {
		return this.endpoint;
	}

	@Override
	public String description() {
		return "external Redis at " + this.endpoint + " (" + RedisServers.URL_VARIABLE + ")";
	}

	@Override
	public void close() {
	}

}
