package dev.slipcase.redis.test;

import java.nio.file.Files;
import java.nio.file.Path;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code redis:7} container started with Testcontainers. Used only when a Docker engine
 * answers; this class is not loaded otherwise.
 */
final class ContainerRedisServer implements RedisServer {

	static final String IMAGE = "redis:7";

	private final GenericContainer<?> container;

	private final RedisEndpoint endpoint;

	private ContainerRedisServer(GenericContainer<?> container) {
		this.container = container;
		this.endpoint = new RedisEndpoint(container.getHost(), container.getMappedPort(6379), null);
	}

	/**
	 * Whether a Docker engine may be there: Testcontainers is asked only when {@code DOCKER_HOST}
	 * is set or the default socket exists, so machines without Docker do not pay for its probe.
	 */
	static boolean isDockerAvailable() {
		boolean hint = System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"))
				|| Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"));
		if (!hint) {
			return false;
		}
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	@SuppressWarnings("resource") // closed by close()
	static ContainerRedisServer start() {
		GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE)).withExposedPorts(6379)
			.withCommand("redis-server", "--save", "", "--appendonly", "no")
			.waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1));
		container.start();
		ContainerRedisServer server = new ContainerRedisServer(container);
		StartedServers.register(server);
		return server;
	}

	@Override
	public RedisEndpoint endpoint() {
		return this.endpoint;
	}

	@Override
	public String description() {
		return IMAGE + " container " + this.container.getContainerId() + " on " + this.endpoint;
	}

	@Override
	public void close() {
		this.container.stop();
		StartedServers.unregister(this);
	}

}
