package dev.slipcase.redis.test;

import java.net.URI;

import org.jspecify.annotations.Nullable;

/**
 * Where a Redis server listens: host, port and an optional password.
 *
 * @param host the host name or address, never {@code null}
 * @param port the TCP port
 * @param password the {@code AUTH} password, or {@code null} when the server has none
 */
public record RedisEndpoint(String host, int port, @Nullable String password) {

	public RedisEndpoint {
		if (host == null || host.isBlank()) {
			throw new IllegalArgumentException("host must not be blank");
		}
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("port must be between 1 and 65535, was " + port);
		}
	}

	/** A loopback endpoint without a password. */
	public static RedisEndpoint loopback(int port) {
		return new RedisEndpoint("127.0.0.1", port, null);
	}

	/**
	 * Parses a {@code redis://[:password@]host:port[/db]} URL; the database part is ignored.
	 * @param url the URL, never {@code null}
	 * @return the endpoint
	 * @throws IllegalArgumentException when the URL is not of that form
	 */
	public static RedisEndpoint parse(String url) {
		URI uri = URI.create(url.trim());
		if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
			throw new IllegalArgumentException("Expected redis://[:password@]host:port, got '" + url + "'");
		}
		String password = null;
		String userInfo = uri.getUserInfo();
		if (userInfo != null && !userInfo.isEmpty()) {
			int colon = userInfo.indexOf(':');
			password = (colon >= 0) ? userInfo.substring(colon + 1) : userInfo;
		}
		return new RedisEndpoint(uri.getHost(), (uri.getPort() > 0) ? uri.getPort() : 6379, password);
	}

	/** This endpoint as a {@code redis://} URL that Lettuce's {@code RedisURI.create} accepts. */
	public String uri() {
		String auth = (this.password != null) ? ":" + this.password + "@" : "";
		return "redis://" + auth + this.host + ":" + this.port;
	}

	@Override
	public String toString() {
		return this.host + ":" + this.port;
	}

}
