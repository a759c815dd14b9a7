package dev.slipcase.redis.autoconfigure.cache;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.near.NearRedisCache;
import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache.ValueWrapper;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The near tier under races and faults, against real servers (Redis 6.2, 7.0, 8.0, Valkey 8.0, and
 * a 3-master Redis 7.0 cluster, where each master has its tracking connection):
 * two app contexts (two clients) share a Redis; 8 writer threads (4 on the first context, 4 on a
 * plain Lettuce client that Slipcase knows nothing of) raise the version of 1,000 keys, each key
 * always by the same writer; 8 reader threads on each context read them through the near tier,
 * while a chaos thread kills the tracking connections ({@code CLIENT KILL}) and pauses the server
 * ({@code CLIENT PAUSE}) at random. No reader may read a version older than one it has already
 * read of that key, and once writes stop and a second has passed, every near entry must equal
 * Redis' value. Runs {@code slipcase.chaos.seconds} seconds (10 by default) per server.
 * Once more on Redis 7.0 with clients that speak RESP2, whose tracking redirects to pub/sub
 * connections, which the chaos thread kills too. The first context's puts go on its tracking
 * connections, which Redis does not report them back to, and hold the value put: the kills hit
 * puts under way too.
 */
class NearCacheChaosTests {

	private static final int KEYS = 1_000;

	private static final int WRITERS = 8;

	private static final int READERS = 8;

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final Duration RUN = Duration.ofSeconds(Long.getLong("slipcase.chaos.seconds", 10));

	private static final String PREFIX = "chaos:";

	static Stream<Arguments> runs() {
		List<Arguments> runs = new ArrayList<>();
		Map<String, Supplier<RedisServer>> servers = new java.util.LinkedHashMap<>();
		servers.put("Redis 6.2", RedisServers::startRedis62);
		servers.put("Redis 7.0", RedisServers::start);
		servers.put("Redis 8.0", RedisServers::startRedis80);
		servers.put("Valkey 8.0", RedisServers::startValkey80);
		servers.forEach((name, start) -> runs.add(Arguments.of(name, start)));
		return runs.stream();
	}

	@Test
	void noReaderGoesBackAndNoNearEntryStaysStaleOnACluster() throws Exception {
		try (RedisCluster cluster = RedisServers.startCluster()) {
			String nodes = String.join(",",
					cluster.endpoints().stream().map((endpoint) -> endpoint.host() + ":" + endpoint.port()).toList());
			ApplicationContextRunner runner = runner().withPropertyValues("spring.data.redis.cluster.nodes=" + nodes,
					"spring.data.redis.timeout=5s");
			RedisClusterClient plain = RedisClusterClient.create(cluster.endpoints()
				.stream()
				.map((endpoint) -> RedisURI.create(endpoint.uri()))
				.toList());
			try (StatefulRedisClusterConnection<byte[], byte[]> connection = plain.connect(ByteArrayCodec.INSTANCE)) {
				runner.run((first) -> runner.run((second) -> new Chaos(cluster.nodes(), first, second,
						connection.sync())
					.run("3-master Redis 7.0 cluster")));
			}
			finally {
				plain.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
					SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
			.withUserConfiguration(ItemApp.class)
			.withPropertyValues("spring.cache.type=redis", "spring.cache.redis.key-prefix=" + PREFIX,
					"slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.heartbeat=250ms");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("runs")
	void noReaderGoesBackAndNoNearEntryStaysStale(String server, Supplier<RedisServer> start) throws Exception {
		try (RedisServer redis = start.get()) {
			ApplicationContextRunner runner = runner().withPropertyValues(RedisProperties.of(redis));
			RedisClient plain = RedisClient.create(RedisURI.create(redis.endpoint().uri()));
			try (StatefulRedisConnection<byte[], byte[]> connection = plain.connect(ByteArrayCodec.INSTANCE)) {
				runner.run((first) -> runner.run((second) -> new Chaos(List.of(redis), first, second,
						connection.sync())
					.run(server)));
			}
			finally {
				plain.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	@Test
	void noReaderGoesBackAndNoNearEntryStaysStaleOverResp2() throws Exception {
		try (RedisServer redis = RedisServers.start()) {
			ApplicationContextRunner runner = runner().withPropertyValues(RedisProperties.of(redis))
				.withBean(LettuceClientOptionsBuilderCustomizer.class,
						() -> (options) -> options.protocolVersion(ProtocolVersion.RESP2));
			RedisClient plain = RedisClient.create(RedisURI.create(redis.endpoint().uri()));
			try (StatefulRedisConnection<byte[], byte[]> connection = plain.connect(ByteArrayCodec.INSTANCE)) {
				runner.run((first) -> runner.run((second) -> {
					Chaos chaos = new Chaos(List.of(redis), first, second, connection.sync());
					chaos.resp2 = true;
					chaos.run("Redis 7.0 over RESP2");
				}));
			}
			finally {
				plain.shutdown(Duration.ZERO, Duration.ofSeconds(2));
			}
		}
	}

	/** One run: the threads, what they saw, and the check at the end. */
	private static final class Chaos {

		private final List<RedisServer> servers;

		private final NearCacheManager[] managers;

		private final NearRedisCache[] caches;

		private final RedisStringCommands<byte[], byte[]> plain;

		/** The clients speak RESP2: tracking redirects to a pub/sub connection, which chaos kills too. */
		boolean resp2;

		private final AtomicBoolean writing = new AtomicBoolean(true);

		private final AtomicBoolean reading = new AtomicBoolean(true);

		private final AtomicLong reads = new AtomicLong();

		private final AtomicLong writes = new AtomicLong();

		private final AtomicLong plainWrites = new AtomicLong();

		private final AtomicLong failures = new AtomicLong();

		private final AtomicLong kills = new AtomicLong();

		private final AtomicLong pauses = new AtomicLong();

		private final ConcurrentLinkedQueue<String> wentBack = new ConcurrentLinkedQueue<>();

		Chaos(List<RedisServer> servers, ApplicationContext first, ApplicationContext second,
				RedisStringCommands<byte[], byte[]> plain) {
			this.servers = servers;
			this.managers = new NearCacheManager[] { (NearCacheManager) first.getBean(CacheManager.class),
					(NearCacheManager) second.getBean(CacheManager.class) };
			this.caches = new NearRedisCache[] { (NearRedisCache) this.managers[0].getCache("items"),
					(NearRedisCache) this.managers[1].getCache("items") };
			this.plain = plain;
		}

		void run(String server) throws Exception {
			for (NearRedisCache cache : this.caches) {
				Wait.until(TIMEOUT, cache.near()::isTrusted);
			}
			if (this.resp2) {
				String pubsub = (String) this.servers.get(0).command("CLIENT", "LIST", "TYPE", "pubsub");
				assertThat(pubsub.lines().filter((client) -> client.contains("sub=2")))
					.as("each context's tracking redirects to a pub/sub connection")
					.hasSize(2);
			}
			for (int key = 0; key < KEYS; key++) {
				write(key, 0);
			}
			List<Thread> writers = new ArrayList<>();
			for (int i = 0; i < WRITERS; i++) {
				int writer = i;
				writers.add(start("writer-" + i, () -> writeLoop(writer)));
			}
			List<Thread> readers = new ArrayList<>();
			for (int i = 0; i < READERS * 2; i++) {
				NearRedisCache cache = this.caches[i % 2];
				String reader = ((i % 2 == 0) ? "first" : "second") + " context, reader " + i;
				readers.add(start("reader-" + i, () -> readLoop(reader, cache)));
			}
			long end = System.nanoTime() + RUN.toNanos();
			for (int round = 0; System.nanoTime() < end; round++) {
				Thread.sleep(ThreadLocalRandom.current().nextInt(200, 1_000));
				chaos(round % 2 == 0);
			}
			this.writing.set(false);
			for (Thread writer : writers) {
				writer.join();
			}
			Thread.sleep(1_000); // readers fill the tiers again
			this.reading.set(false);
			for (Thread reader : readers) {
				reader.join();
			}
			for (NearRedisCache cache : this.caches) {
				Wait.until(TIMEOUT, cache.near()::isTrusted);
			}
			Thread.sleep(1_000); // writes stopped a second ago at least: every invalidation has arrived
			int stale = 0;
			int held = 0;
			for (int key = 0; key < KEYS; key++) {
				Item inRedis = (Item) this.caches[0].getCacheConfiguration()
					.getValueSerializationPair()
					.read(ByteBuffer.wrap(this.plain.get(redisKey(key))));
				for (NearRedisCache cache : this.caches) {
					Object near = cache.near().peek(PREFIX + "items::" + key);
					if (near != null) {
						held++;
						if (!near.equals(inRedis)) {
							stale++;
						}
					}
				}
			}
			NearCache a = this.caches[0].near();
			NearCache b = this.caches[1].near();
			System.out.printf(
					"Near cache chaos on %s (%s): %,d reads (near hits %,d + %,d, misses %,d + %,d, bypassed %,d + %,d), "
							+ "%,d writes (%,d by plain Lettuce), %,d failed calls, %d tracking kills, %d pauses; invalidations %,d + %,d; "
							+ "reads older than one already read: %d; near entries held after writes stopped: %d, stale: %d%n",
					server, RUN, this.reads.get(), a.hits(), b.hits(), a.misses(), b.misses(), a.bypassed(),
					b.bypassed(), this.writes.get(), this.plainWrites.get(), this.failures.get(),
					this.kills.get(), this.pauses.get(), a.invalidations(), b.invalidations(), this.wentBack.size(),
					held, stale);
			assertThat(this.wentBack).as("reads older than one already read").isEmpty();
			assertThat(stale).as("stale near entries").isZero();
			assertThat(held).as("near entries held after writes stopped").isPositive();
			assertThat(a.hits() + b.hits()).as("near hits").isPositive();
			assertThat(a.invalidations() + b.invalidations()).as("invalidations").isPositive();
			assertThat(this.kills.get()).as("tracking kills").isPositive();
			assertThat(this.pauses.get()).as("pauses").isPositive();
			assertThat(this.plainWrites.get()).as("writes by plain Lettuce").isPositive();
			assertThat(this.writes.get() - this.plainWrites.get()).as("writes through the near tier").isPositive();
		}

		private void writeLoop(int writer) {
			long[] versions = new long[KEYS];
			ThreadLocalRandom random = ThreadLocalRandom.current();
			while (this.writing.get()) {
				int key = writer + WRITERS * random.nextInt(KEYS / WRITERS);
				try {
					write(key, ++versions[key]);
					this.writes.incrementAndGet();
					if (isPlain(key)) {
						this.plainWrites.incrementAndGet();
					}
				}
				catch (RuntimeException ex) {
					this.failures.incrementAndGet();
				}
			}
		}

		/** Whether {@code key}'s writer is one of the plain Lettuce half: writers 4 to 7. */
		private static boolean isPlain(int key) {
			return key % WRITERS >= WRITERS / 2;
		}

		private void write(int key, long version) {
			Item item = new Item(key, version);
			if (isPlain(key)) {
				ByteBuffer bytes = this.caches[0].getCacheConfiguration().getValueSerializationPair().write(item);
				byte[] value = new byte[bytes.remaining()];
				bytes.get(value);
				this.plain.set(redisKey(key), value);
			}
			else {
				this.caches[0].put(key, item);
			}
		}

		private void readLoop(String reader, NearRedisCache cache) {
			long[] seen = new long[KEYS];
			ThreadLocalRandom random = ThreadLocalRandom.current();
			while (this.reading.get()) {
				int key = random.nextInt(KEYS);
				try {
					ValueWrapper value = cache.get(key);
					this.reads.incrementAndGet();
					long version = (value != null) ? ((Item) value.get()).version() : -1;
					if (version < seen[key]) {
						this.wentBack.add(reader + ", key " + key + ": " + version + " after " + seen[key]);
					}
					seen[key] = Math.max(seen[key], version);
				}
				catch (RuntimeException ex) {
					this.failures.incrementAndGet();
				}
			}
		}

		/** Kills a tracking connection or pauses a server, each at random, in turns. */
		private void chaos(boolean kill) {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			try {
				if (kill && this.resp2 && random.nextBoolean()) {
					this.servers.get(0).command("CLIENT", "KILL", "TYPE", "pubsub");
					this.kills.incrementAndGet();
				}
				else if (kill) {
					List<Map.Entry<String, Long>> ids = new ArrayList<>(
							this.managers[random.nextInt(2)].tracking().clientIds(Duration.ofSeconds(5)).entrySet());
					if (!ids.isEmpty()) {
						Map.Entry<String, Long> id = ids.get(random.nextInt(ids.size()));
						serverOf(id.getKey()).command("CLIENT", "KILL", "ID", Long.toString(id.getValue()));
						this.kills.incrementAndGet();
					}
				}
				else {
					this.servers.get(random.nextInt(this.servers.size()))
						.command("CLIENT", "PAUSE", Integer.toString(random.nextInt(100, 700)), "ALL");
					this.pauses.incrementAndGet();
				}
			}
			catch (RuntimeException ex) {
				// the tracking connection was reconnecting: try again next time
			}
		}

		/** The server a tracking connection is named after: the only one, or the master at its address. */
		private RedisServer serverOf(String tracked) {
			if (this.servers.size() == 1) {
				return this.servers.get(0);
			}
			int port = Integer.parseInt(tracked.substring(tracked.lastIndexOf(':') + 1));
			return this.servers.stream()
				.filter((server) -> server.endpoint().port() == port)
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No node for " + tracked));
		}

		private static byte[] redisKey(int key) {
			return (PREFIX + "items::" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8);
		}

		private static Thread start(String name, Runnable loop) {
			Thread thread = new Thread(loop, "chaos-" + name);
			thread.start();
			return thread;
		}

	}

	/** A versioned value. */
	public record Item(int key, long version) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class ItemApp {

		@Bean
		ItemService itemService() {
			return new ItemService();
		}

	}

	public static class ItemService {

		@Cacheable("items")
		public Item item(int key) {
			return new Item(key, 0);
		}

	}

}
