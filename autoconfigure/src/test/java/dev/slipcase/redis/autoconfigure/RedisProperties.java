package dev.slipcase.redis.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisServer;

/** {@code spring.data.redis.*} properties pointing Boot at a test server, or at nothing. */
public final class RedisProperties {

	private RedisProperties() {
	}

	/** Properties that point Boot at {@code redis}. */
	public static String[] of(RedisServer redis) {
		RedisEndpoint endpoint = redis.endpoint();
		return new String[] { "spring.data.redis.host=" + endpoint.host(), "spring.data.redis.port=" + endpoint.port(),
				"spring.data.redis.timeout=5s" };
	}

	/** Properties that point Boot at a loopback port nothing listens on. */
	public static String[] unreachable() {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new String[] { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port,
				"spring.data.redis.timeout=2s", "spring.data.redis.connect-timeout=2s" };
	}

}
