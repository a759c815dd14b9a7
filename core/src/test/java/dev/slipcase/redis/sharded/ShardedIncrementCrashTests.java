package dev.slipcase.redis.sharded;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.serializer.GenericToStringSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Increments while Redis ({@code appendfsync always}) is killed with SIGKILL and restarted: Lettuce
 * writes a command again after it reconnects when its reply was lost, which would apply an
 * increment twice. Every counter must equal its acknowledged increments, or be higher only by
 * increments that failed with an exception; never higher than both together.
 */
class ShardedIncrementCrashTests {

	private static final int THREADS = 8;

	private static final int COUNTERS = 16;

	@TempDir
	Path directory;

	private Process redis;

	@AfterEach
	void stopRedis() {
		if (this.redis != null) {
			this.redis.destroyForcibly();
		}
	}

	@Test
	void incrementsAreNeverAppliedTwiceAcrossAKillAndRestart() throws Exception {
		int port = freePort();
		this.redis = startRedis(port);
		RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port).withTimeout(Duration.ofSeconds(10)).build());
		try (ShardedTemplates templates = ShardedTemplates.create(client)) {
			ShardedTemplate<Long> numeric = templates.template(ShardedNamespace.builder("crash").keyPrefix("n:").build(),
					new GenericToStringSerializer<>(Long.class));
			ShardedTemplate<Long> hashed = templates.template(ShardedNamespace.builder("crashh").keyPrefix("h:")
				.strategy(ShardingStrategy.HASHED).build(), new GenericToStringSerializer<>(Long.class));
			AtomicLongArray acknowledged = new AtomicLongArray(2 * COUNTERS);
			AtomicLongArray failed = new AtomicLongArray(2 * COUNTERS);
			Map<Class<?>, Integer> failures = new ConcurrentHashMap<>();
			AtomicBoolean running = new AtomicBoolean(true);
			ExecutorService pool = Executors.newFixedThreadPool(THREADS);
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				workers.add(pool.submit(() -> {
					for (long i = thread; running.get(); i++) {
						int counter = (int) (i % (2 * COUNTERS));
						boolean isHashed = counter >= COUNTERS;
						try {
							if (isHashed) {
								hashed.incrBy("h:c" + counter, 1);
							}
							else {
								numeric.incrBy("n:" + counter, 1);
							}
							acknowledged.incrementAndGet(counter);
						}
						catch (DataAccessException ex) {
							failed.incrementAndGet(counter);
							failures.merge(ex.getClass(), 1, Integer::sum);
						}
					}
					return null;
				}));
			}
			Thread.sleep(700);
			this.redis.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			Thread.sleep(300);
			this.redis = startRedis(port);
			Thread.sleep(1500);
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(1, TimeUnit.MINUTES);
			}
			pool.shutdown();

			long totalFailed = 0;
			for (int counter = 0; counter < 2 * COUNTERS; counter++) {
				boolean isHashed = counter >= COUNTERS;
				Long stored = isHashed ? hashed.get("h:c" + counter) : numeric.get("n:" + counter);
				long value = (stored != null) ? stored : 0;
				assertThat(value).as("counter %d: acknowledged %d, failed %d", counter, acknowledged.get(counter),
						failed.get(counter))
					.isGreaterThanOrEqualTo(acknowledged.get(counter))
					.isLessThanOrEqualTo(acknowledged.get(counter) + failed.get(counter));
				totalFailed += failed.get(counter);
			}
			assertThat(totalFailed).as("the kill failed some increments: %s", failures).isPositive();
			assertThat(failures.keySet()).allMatch(DataAccessException.class::isAssignableFrom);
			assertThat(failures).as("a lost reply is reported as such").containsKey(UnacknowledgedWriteException.class);
		}
		finally {
			client.shutdown();
		}
	}

	private Process startRedis(int port) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(RedisServers.serverBinary().toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--appendonly", "yes", "--appendfsync", "always", "--save", "", "--dir", this.directory.toString())
			.redirectErrorStream(true)
			.redirectOutput(this.directory.resolve("redis.log").toFile())
			.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (System.nanoTime() < deadline) {
			try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
				socket.getOutputStream().write("PING\r\n".getBytes());
				byte[] reply = new byte[7];
				int read = socket.getInputStream().read(reply);
				if (read > 0 && new String(reply, 0, read).startsWith("+PONG")) {
					return process;
				}
			}
			catch (IOException notYet) {
				Thread.sleep(20);
			}
		}
		throw new IllegalStateException("redis-server did not start: " + Files.readString(this.directory.resolve("redis.log")));
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
