package dev.slipcase.redis.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.benchmark.ProcessCostProfiler;
import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A private local Redis for one benchmark trial, with the clients the candidates need: a plain
 * Lettuce client, clients whose resources coalesce writes or send each command on its own, and
 * Spring connection factories per database. Tells {@link ProcessCostProfiler} the server's process.
 * Closed in {@code @TearDown}. Public for the benchmarks of other packages (the near cache's).
 */
public final class RedisFixture implements AutoCloseable {

	/** How a client's connections write: the commands of concurrent callers together, or each on its own. */
	public enum Writes {

		/** Resources built with {@link WriteCoalescing#configure}. */
		COALESCED,

		/**
		 * Resources built with {@link WriteCoalescing#configure} and then Lettuce's own event loops
		 * set back (Netty's {@code NioIoHandler}): what coalescing gains without Slipcase's loop.
		 */
		COALESCED_NETTY_LOOP,

		/**
		 * Resources built with {@link WriteCoalescing#configure(ClientResources.Builder, Duration)}
		 * with no busy poll: Slipcase's loop blocking at once when it runs out of work.
		 */
		COALESCED_NO_BUSY_POLL,

		/** Resources built with {@link WriteCoalescing#disable}: Lettuce as it comes, which Slipcase leaves alone. */
		EACH

	}

	private final RedisServer server;

	private final RedisClient client;

	private final Map<Writes, ClientResources> resources = new EnumMap<>(Writes.class);

	private final Map<Writes, RedisClient> clients = new EnumMap<>(Writes.class);

	private RedisFixture(RedisServer server) {
		this.server = server;
		this.client = RedisClient.create();
		watchSystemCalls(server);
	}

	public static RedisFixture start() {
		return new RedisFixture(RedisServers.start());
	}

	/** A plain client (Slipcase's templates add coalescing to it when they connect). */
	RedisClient client() {
		return this.client;
	}

	/** A client whose connections write as {@code writes} says. */
	synchronized RedisClient client(Writes writes) {
		return this.clients.computeIfAbsent(writes, (kind) -> RedisClient.create(resources(kind)));
	}

	RedisURI uri() {
		return RedisURI.create(this.server.endpoint().uri());
	}

	public RedisServer server() {
		return this.server;
	}

	/** A started Spring connection factory on {@code database} with its own resources; the caller destroys it. */
	LettuceConnectionFactory connectionFactory(int database) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration(database));
		factory.afterPropertiesSet();
		return factory;
	}

	/** A started Spring connection factory on {@code database} whose connections write as {@code writes} says. */
	public LettuceConnectionFactory connectionFactory(int database, Writes writes) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder().clientResources(resources(writes)).build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration(database), client);
		factory.afterPropertiesSet();
		return factory;
	}

	private RedisStandaloneConfiguration configuration(int database) {
		RedisEndpoint endpoint = this.server.endpoint();
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
		configuration.setDatabase(database);
		return configuration;
	}

	private synchronized ClientResources resources(Writes writes) {
		return this.resources.computeIfAbsent(writes, (kind) -> switch (kind) {
			case COALESCED -> WriteCoalescing.configure(ClientResources.builder()).build();
			case COALESCED_NETTY_LOOP -> WriteCoalescing.configure(ClientResources.builder())
				.eventLoopGroupProvider(new DefaultEventLoopGroupProvider(DefaultClientResources.DEFAULT_IO_THREADS))
				.build();
			case COALESCED_NO_BUSY_POLL -> WriteCoalescing.configure(ClientResources.builder(), Duration.ZERO).build();
			case EACH -> WriteCoalescing.disable(ClientResources.builder()).build();
		});
	}

	@Override
	public synchronized void close() {
		ProcessCostProfiler.endOfMeasurement();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.clients.values().forEach((client) -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
		this.resources.values().forEach((resources) -> resources.shutdown(0, 2, TimeUnit.SECONDS));
		ProcessCostProfiler.watchServer(-1);
		this.server.close();
	}

	/** Names the server's process to the profiler when it is a local process of this machine. */
	private static void watchSystemCalls(RedisServer server) {
		try {
			long pid = Long.parseLong(server.info("server", "process_id").trim());
			String commandLine = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
			if (commandLine.contains(Integer.toString(server.endpoint().port()))
					&& (commandLine.contains("redis") || commandLine.contains("valkey"))) {
				ProcessCostProfiler.watchServer(pid);
			}
		}
		catch (IOException | RuntimeException ex) {
			// not a local process (a container, an external server): client counts only
		}
	}

}
