package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.benchmark.Payloads;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.template.RedisFixture;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * Spring's {@link Cache} over a real local Redis (7.0, started for the trial by the benchmarks'
 * {@link RedisFixture}), with and without the near tier, side by side in one run:
 * <ul>
 * <li>{@code getHit}: {@code Cache.get(key)} of one hot key that is held, meant for 1 thread;</li>
 * <li>{@code readWriteMix}: over 1,000 hot keys at random, 90% {@code Cache.get(key)} and 10%
 * {@code Cache.put(key, value)} of another value for the key, meant for 8 threads (its
 * {@code @Threads}).</li>
 * </ul>
 * Both tiers are built as the Boot starter builds a cache manager: Slipcase's JSON serializer for
 * a record of about 900 bytes of JSON, Spring Data's default cache configuration otherwise (String
 * keys under {@code orders::}, no TTL), one Spring connection factory whose connections coalesce
 * writes, shared by the benchmark threads. {@code tier=redis}
 * is the plain {@code RedisCache} with Boot's writer ({@code nonLockingRedisCacheWriter}, puts
 * sent without waiting); {@code tier=near} is the {@link NearRedisCache} of a
 * {@link NearCacheManager} started as {@code slipcase.redis.cache.near.enabled} starts it (10,000
 * entries, a 1 s heartbeat, puts that return once in Redis, sent on the tracking connection so
 * that Redis does not report them back and the value put is held). Measurement begins once the near tier
 * is trusted and holds every hot key. The record is {@code value=order} ({@link Payloads.Order},
 * with lists and a map, which Jackson decodes into {@code ArrayList} and {@code LinkedHashMap}: a
 * near tier that hands each reader a copy of its own decodes such a value on every hit) or
 * {@code value=flat-order} (the same order as a {@link FlatOrder} of scalars only, handed out as it
 * is). Throughput, so that each result is compared with the other tier's; average time per call
 * is threads / throughput. Run with {@code -prof gc} for bytes allocated per operation:
 * <pre>java -jar benchmarks/target/benchmarks.jar NearCacheBenchmark -prof gc</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class NearCacheBenchmark {

	/** The cache's name. */
	static final String CACHE = "orders";

	/** The keys {@code readWriteMix} reads and writes. */
	static final int HOT_KEYS = 1_000;

	/** The share of {@code readWriteMix}'s operations that are puts, in percent. */
	static final int WRITE_PERCENT = 10;

	/** The near tier's size, {@code slipcase.redis.cache.near.maximum-size}'s default. */
	static final long NEAR_MAXIMUM_SIZE = 10_000;

	/** {@code slipcase.redis.cache.near.heartbeat}'s default. */
	static final Duration HEARTBEAT = Duration.ofSeconds(1);

	/** How long set-up waits for the near tier to be trusted and to hold every hot key. */
	private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

	/** The server, the cache and the values, shared by the benchmark threads. */
	@State(Scope.Benchmark)
	public static class Shared {

		/**
		 * {@code near}: the near tier's {@code NearRedisCache}; {@code redis}: the plain
		 * {@code RedisCache}, every read a Redis GET.
		 */
		@Param({ "near", "redis" })
		public String tier;

		/** {@code order}: {@link Payloads.Order}; {@code flat-order}: {@link FlatOrder}. */
		@Param({ "order", "flat-order" })
		public String value;

		RedisFixture redis;

		LettuceConnectionFactory factory;

		RedisCacheManager manager;

		@Nullable NearCacheManager nearManager;

		Cache cache;

		/** The cache keys, {@code order:0} to {@code order:999}. */
		String[] keys;

		/** Two values per key, {@code values[version][key]}, about 1 KB of JSON each. */
		Object[][] values;

		final AtomicInteger threads = new AtomicInteger();

		@Setup(Level.Trial)
		public void setUp() throws InterruptedException {
			this.redis = RedisFixture.start();
			this.redis.server().flushAll();
			this.factory = this.redis.connectionFactory(0, RedisFixture.Writes.COALESCED);
			boolean near = "near".equals(this.tier);
			if (!near && !"redis".equals(this.tier)) {
				throw new IllegalArgumentException("Unknown tier '" + this.tier + "'; known: near, redis");
			}
			// the writer the starter picks: a near tier needs puts that are in Redis when they return
			RedisCacheWriter writer = near
					? RedisCacheWriter.create(this.factory, (configurer) -> configurer.immediateWrites())
					: RedisCacheWriter.nonLockingRedisCacheWriter(this.factory);
			RedisCacheConfiguration configuration = RedisCacheConfiguration.defaultCacheConfig()
				.serializeValuesWith(SerializationPair.fromSerializer(SlipcaseSerializers.json(valueType())));
			this.manager = RedisCacheManager.builder(writer)
				.cacheDefaults(configuration)
				.initialCacheNames(Set.of(CACHE))
				.build();
			this.manager.afterPropertiesSet();
			if (near) {
				// puts on the tracking connection, as the starter's writer (no statistics) allows
				this.nearManager = NearCacheManager.start(this.manager, CACHE::equals,
						(cache) -> new NearCache(cache.getName(), NEAR_MAXIMUM_SIZE, null), (cache) -> true,
						TrackedNodes.of(Connectors.following(this.factory::getRequiredNativeClient, StringCodec.UTF8,
								this.factory.getDatabase())),
						HEARTBEAT);
			}
			RedisCacheManager caches = (this.nearManager != null) ? this.nearManager : this.manager;
			this.cache = caches.getCache(CACHE);
			this.keys = new String[HOT_KEYS];
			this.values = new Object[2][HOT_KEYS];
			for (int i = 0; i < HOT_KEYS; i++) {
				this.keys[i] = "order:" + i;
				this.values[0][i] = value(i);
				this.values[1][i] = value(HOT_KEYS + i);
			}
			if (this.nearManager != null) {
				awaitTrusted(nearTier());
			}
			for (int i = 0; i < HOT_KEYS; i++) {
				this.cache.put(this.keys[i], this.values[0][i]);
			}
			awaitHeld();
		}

		private Class<?> valueType() {
			return switch (this.value) {
				case "order" -> Payloads.Order.class;
				case "flat-order" -> FlatOrder.class;
				default -> throw new IllegalArgumentException("Unknown value '" + this.value + "'; known: order, flat-order");
			};
		}

		private Object value(long seed) {
			return (valueType() == FlatOrder.class) ? FlatOrder.of(seed) : Payloads.order(seed);
		}

		/** The near tier of the cache; only for {@code tier=near}. */
		NearCache nearTier() {
			return this.nearManager.nearTiers().get(CACHE);
		}

		private static void awaitTrusted(NearCache near) throws InterruptedException {
			long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
			while (!near.isTrusted()) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("The near tier was not trusted within " + READY_TIMEOUT);
				}
				Thread.sleep(10);
			}
		}

		/**
		 * Reads every hot key until each read finds its value (Boot's writer sends a put without
		 * waiting for it) and, with a near tier, until it holds them all (the invalidations of
		 * set-up's own puts may drop a value just stored).
		 */
		private void awaitHeld() throws InterruptedException {
			NearCache near = (this.nearManager != null) ? nearTier() : null;
			String prefix = (this.cache instanceof NearRedisCache nearCache) ? nearCache.keyPrefix() : "";
			long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
			while (true) {
				int unread = 0;
				int unheld = 0;
				for (int i = 0; i < HOT_KEYS; i++) {
					if (this.cache.get(this.keys[i]) == null) {
						unread++;
					}
					else if (near != null && near.peek(prefix + this.keys[i]) == null) {
						unheld++;
					}
				}
				if (unread == 0 && unheld == 0) {
					return;
				}
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("After " + READY_TIMEOUT + ", " + unread + " of " + HOT_KEYS
							+ " keys were not in Redis and " + unheld + " not held by the near tier");
				}
				Thread.sleep(10);
			}
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			if (this.nearManager != null) {
				NearCache near = nearTier();
				if (near.bypassed() > 0) {
					// tracking was not trusted for a while (a late heartbeat): those reads went to Redis
					System.err.printf("NearCacheBenchmark: the near tier bypassed %,d reads (%,d hits, %,d misses)%n",
							near.bypassed(), near.hits(), near.misses());
				}
				this.nearManager.destroy();
			}
			this.factory.destroy();
			this.redis.close();
		}

	}

	/** Each thread's own sequence of keys and operations. */
	@State(Scope.Thread)
	public static class PerThread {

		SplittableRandom random;

		int writes;

		@Setup(Level.Trial)
		public void setUp(Shared shared) {
			this.random = new SplittableRandom(shared.threads.incrementAndGet());
		}

	}

	/** {@code Cache.get} of one hot key: the near tier's hit, or a Redis GET and its decoding. */
	@Benchmark
	public Cache.@Nullable ValueWrapper getHit(Shared shared) {
		return shared.cache.get(shared.keys[0]);
	}

	/**
	 * One operation of the mix: a put of the key's other value ({@value #WRITE_PERCENT}%), or a
	 * get, of a hot key at random.
	 */
	@Benchmark
	@Threads(8)
	public @Nullable Object readWriteMix(Shared shared, PerThread thread) {
		int key = thread.random.nextInt(HOT_KEYS);
		if (thread.random.nextInt(100) < WRITE_PERCENT) {
			Object value = shared.values[thread.writes++ & 1][key];
			shared.cache.put(shared.keys[key], value);
			return value;
		}
		return shared.cache.get(shared.keys[key]);
	}

}
