package dev.slipcase.redis.template;

import java.time.Duration;

import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A private local Redis for one benchmark trial, with the clients the candidates need: a plain
 * Lettuce client, and Spring connection factories per database. Closed in {@code @TearDown}.
 */
final class RedisFixture implements AutoCloseable {

	private final RedisServer server;

	private final RedisClient client;

	private RedisFixture(RedisServer server) {
		this.server = server;
		this.client = RedisClient.create();
	}

	static RedisFixture start() {
		return new RedisFixture(RedisServers.start());
	}

	RedisClient client() {
		return this.client;
	}

	RedisURI uri() {
		return RedisURI.create(this.server.endpoint().uri());
	}

	RedisServer server() {
		return this.server;
	}

	/** A started Spring connection factory on {@code database}; the caller destroys it. */
	LettuceConnectionFactory connectionFactory(int database) {
		RedisEndpoint endpoint = this.server.endpoint();
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
		configuration.setDatabase(database);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		return factory;
	}

	@Override
	public void close() {
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.server.close();
	}

}
