package dev.slipcase.redis.sample.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import redis.embedded.RedisServer;

/**
 * A real {@code redis-server} (the Redis 6.2 binary that the {@code embedded-redis} jar ships)
 * listening on a free loopback port with persistence off, for running the sample app on a machine
 * with no Redis. Started by its constructor, stopped by {@link #close()}.
 */
public final class EmbeddedRedisServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(EmbeddedRedisServer.class);

	static final String HOST = "127.0.0.1";

	private final RedisServer server;

	private final int port;

	EmbeddedRedisServer() {
		this.port = freePort();
		try {
			this.server = RedisServer.newRedisServer()
				.bind(HOST)
				.port(this.port)
				.setting("save \"\"")
				.setting("appendonly no")
				.build();
			this.server.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded Redis on port " + this.port, ex);
		}
		logger.info("No Redis configured (spring.data.redis.*): started an embedded Redis 6.2 on " + HOST + ":"
				+ this.port + " with persistence off. Set spring.data.redis.host/port or url to use your own.");
	}

	/** The loopback port the server listens on. */
	public int port() {
		return this.port;
	}

	@Override
	public void close() throws IOException {
		this.server.stop();
		logger.info("Stopped the embedded Redis on " + HOST + ":" + this.port);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free loopback port for the embedded Redis", ex);
		}
	}

}
