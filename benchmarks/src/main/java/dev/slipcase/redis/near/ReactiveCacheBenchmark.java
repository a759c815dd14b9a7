package dev.slipcase.redis.near;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.benchmark.Payloads;
import dev.slipcase.redis.lettuce.Connectors;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.template.ReactiveValueTemplate;
import dev.slipcase.redis.template.RedisFixture;
import dev.slipcase.redis.template.ValueTemplate;
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
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * A hit of a reactive {@code @Cacheable} method ({@code Mono<Order>}, through Spring's cache
 * interceptor) over a real local Redis, beside a {@link ReactiveValueTemplate#get} of the same
 * value in the same format, one caller, side by side in one run:
 * <ul>
 * <li>{@code candidate=template-get}: {@code ReactiveValueTemplate.get(key).block()};</li>
 * <li>{@code candidate=cacheable-redis}: the {@code @Cacheable} method's {@code Mono}, blocked
 * on, its cache a {@code RedisCache} with Slipcase's JSON serializer and Boot's writer: every hit
 * a Redis GET;</li>
 * <li>{@code candidate=cacheable-near}: the same with the near tier on
 * ({@code slipcase.redis.cache.near.enabled}): every hit served from the JVM.</li>
 * </ul>
 * The value is one {@link Payloads.Order} (about 900 bytes of JSON). Average time per call; run
 * with {@code -prof gc} for bytes allocated per call:
 * <pre>java -jar benchmarks/target/benchmarks.jar ReactiveCacheBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ReactiveCacheBenchmark {

	static final String CACHE = "orders";

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final long ID = 42;

	@Param({ "template-get", "cacheable-redis", "cacheable-near" })
	public String candidate;

	private RedisFixture redis;

	private LettuceConnectionFactory factory;

	private @Nullable ValueTemplate<Payloads.Order> template;

	private @Nullable ReactiveValueTemplate<Payloads.Order> reactive;

	private @Nullable AnnotationConfigApplicationContext context;

	private @Nullable Orders orders;

	@Setup(Level.Trial)
	public void setUp() throws InterruptedException {
		this.redis = RedisFixture.start();
		this.redis.server().flushAll();
		this.factory = this.redis.connectionFactory(0, RedisFixture.Writes.COALESCED);
		switch (this.candidate) {
			case "template-get" -> {
				this.template = ValueTemplate.create(this.factory,
						SelfDescribingFormat.of(JsonFormat.of(Payloads.Order.class)));
				this.template.set("orders::" + ID, Payloads.order(ID));
				this.reactive = this.template.reactive();
			}
			case "cacheable-redis", "cacheable-near" -> {
				this.context = new AnnotationConfigApplicationContext();
				this.context.registerBean(LettuceConnectionFactory.class, () -> this.factory);
				this.context.registerBean("near", Boolean.class, () -> "cacheable-near".equals(this.candidate));
				this.context.register(Caching.class);
				this.context.refresh();
				this.orders = this.context.getBean(Orders.class);
				this.orders.order(ID).block(WAIT); // the miss that caches it
				awaitHit();
			}
			default -> throw new IllegalArgumentException("Unknown candidate '" + this.candidate + "'");
		}
	}

	/** Until a call is a hit (Boot's writer sends the put without waiting) and, near, held. */
	private void awaitHit() throws InterruptedException {
		Orders orders = this.orders;
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (orders.loads() > 1 || !held()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("No cache hit within " + WAIT);
			}
			Thread.sleep(10);
			orders.order(ID).block(WAIT);
			if (orders.loads() > 1) {
				orders.resetLoads();
			}
		}
	}

	private boolean held() {
		CacheManager caches = this.context.getBean(CacheManager.class);
		if (caches instanceof NearCacheManager near) {
			NearCache tier = near.nearTiers().get(CACHE);
			return tier.isTrusted() && tier.peek("orders::" + ID) != null;
		}
		return true;
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		if (this.orders != null && this.orders.loads() > 1) {
			throw new IllegalStateException("The cached method ran " + this.orders.loads() + " times: not every call was a hit");
		}
		if (this.template != null) {
			this.template.close();
		}
		if (this.context != null) {
			this.context.close(); // destroys a NearCacheManager, a DisposableBean
		}
		this.factory.destroy();
		this.redis.close();
	}

	@Benchmark
	public Payloads.@Nullable Order get() {
		return (this.reactive != null) ? this.reactive.get("orders::" + ID).block(WAIT) : this.orders.order(ID).block(WAIT);
	}

	/** A service whose method is cached. */
	static class Orders {

		private volatile int loads;

		@Cacheable(CACHE)
		public Mono<Payloads.Order> order(long id) {
			return Mono.fromSupplier(() -> {
				this.loads++;
				return Payloads.order(id);
			});
		}

		int loads() {
			return this.loads;
		}

		void resetLoads() {
			this.loads = 1;
		}

	}

	/** The cache manager as the starter builds it, with or without the near tier. */
	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class Caching {

		@Bean
		Orders orders() {
			return new Orders();
		}

		@Bean
		RedisCacheManager cacheManager(LettuceConnectionFactory factory, Boolean near) {
			RedisCacheWriter writer = near
					? RedisCacheWriter.create(factory, (configurer) -> configurer.immediateWrites())
					: RedisCacheWriter.nonLockingRedisCacheWriter(factory);
			RedisCacheManager manager = RedisCacheManager.builder(writer)
				.cacheDefaults(RedisCacheConfiguration.defaultCacheConfig()
					.serializeValuesWith(SerializationPair.fromSerializer(SlipcaseSerializers.json(Payloads.Order.class))))
				.initialCacheNames(Set.of(CACHE))
				.build();
			manager.afterPropertiesSet();
			if (!near) {
				return manager;
			}
			return NearCacheManager.start(manager, CACHE::equals,
					(cache) -> new NearCache(cache.getName(), NearCacheBenchmark.NEAR_MAXIMUM_SIZE, null), (cache) -> true,
					TrackedNodes.of(Connectors.following(factory::getRequiredNativeClient, StringCodec.UTF8,
							factory.getDatabase())),
					NearCacheBenchmark.HEARTBEAT);
		}

	}

}
