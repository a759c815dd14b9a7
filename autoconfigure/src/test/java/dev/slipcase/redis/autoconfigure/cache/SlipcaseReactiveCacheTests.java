package dev.slipcase.redis.autoconfigure.cache;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Cacheable} on methods returning {@code Mono}, {@code Flux} and {@code CompletableFuture}
 * in a Boot app against a real Redis: Spring caches the element ({@code Mono<Order>} an
 * {@code Order}, {@code Flux<Order>} a list of them), read back through the cache's asynchronous
 * retrieve, and Slipcase stores it as plain JSON of that type; an entry it cannot read is a miss,
 * as for a blocking method.
 */
class SlipcaseReactiveCacheTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
		.withUserConfiguration(ReactiveCachingApp.class)
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "spring.cache.type=redis",
				"spring.cache.redis.key-prefix=" + getClass().getSimpleName() + "-" + System.nanoTime() + ":");

	@Test
	void aMonoCachesItsElementAsPlainJson() {
		this.runner.run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			assertThat(orders.order(1).block(WAIT)).isEqualTo(Order.sample(1, null));
			assertThat(orders.order(1).block(WAIT)).isEqualTo(Order.sample(1, null));
			assertThat(orders.calls()).isEqualTo(1);
			assertThat(stored(context, key(context, "monoOrders", 1))).startsWith("{\"id\":1,")
				.doesNotContain("Order")
				.doesNotContain("Mono");
		});
	}

	@Test
	void aFluxCachesItsElementsAsAJsonList() {
		this.runner.run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			List<Order> expected = List.of(Order.sample(2, null), Order.sample(3, "second"));
			assertThat(orders.orders(2).collectList().block(WAIT)).isEqualTo(expected);
			assertThat(orders.orders(2).collectList().block(WAIT)).isEqualTo(expected);
			assertThat(orders.calls()).isEqualTo(1);
			assertThat(stored(context, key(context, "fluxOrders", 2))).startsWith("[{\"id\":2,").contains("{\"id\":3,");
		});
	}

	@Test
	void aCompletableFutureCachesItsResultAsPlainJson() {
		this.runner.run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			assertThat(orders.future(4).get(10, TimeUnit.SECONDS)).isEqualTo(Order.sample(4, null));
			assertThat(orders.future(4).get(10, TimeUnit.SECONDS)).isEqualTo(Order.sample(4, null));
			assertThat(orders.calls()).isEqualTo(1);
			assertThat(stored(context, key(context, "futureOrders", 4))).startsWith("{\"id\":4,");
		});
	}

	@Test
	void anEntryItCannotReadIsAMissAndIsReplaced() {
		this.runner.run((context) -> {
			ReactiveOrders orders = context.getBean(ReactiveOrders.class);
			String key = key(context, "monoOrders", 5);
			write(context, key, new JdkSerializationRedisSerializer().serialize("written before Slipcase"));
			assertThat(orders.order(5).block(WAIT)).isEqualTo(Order.sample(5, null));
			assertThat(orders.calls()).isEqualTo(1);
			assertThat(stored(context, key)).startsWith("{\"id\":5,");
			String wrongShape = key(context, "fluxOrders", 6);
			write(context, wrongShape, "{\"id\":6}".getBytes(StandardCharsets.UTF_8));
			assertThat(orders.orders(6).collectList().block(WAIT)).hasSize(2);
			assertThat(orders.calls()).isEqualTo(2);
			assertThat(stored(context, wrongShape)).startsWith("[{\"id\":6,");
		});
	}

	private static String key(ApplicationContext context, String cache, Object id) {
		return context.getEnvironment().getProperty("spring.cache.redis.key-prefix") + cache + "::" + id;
	}

	private static String stored(ApplicationContext context, String key) {
		byte[] value = context.getBean(StringRedisTemplate.class)
			.execute((RedisCallback<byte[]>) (connection) -> connection.stringCommands()
				.get(key.getBytes(StandardCharsets.UTF_8)));
		assertThat(value).as("value at %s", key).isNotNull();
		return new String(value, StandardCharsets.UTF_8);
	}

	private static void write(ApplicationContext context, String key, byte[] value) {
		context.getBean(StringRedisTemplate.class)
			.execute((RedisCallback<Boolean>) (connection) -> connection.stringCommands()
				.set(key.getBytes(StandardCharsets.UTF_8), value));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class ReactiveCachingApp {

		@Bean
		ReactiveOrders reactiveOrders() {
			return new ReactiveOrders();
		}

		/** Immediate writes, so that the second call finds what the first stored. */
		@Bean
		RedisCacheManagerBuilderCustomizer immediateWrites(RedisConnectionFactory connectionFactory) {
			return (builder) -> builder
				.cacheWriter(RedisCacheWriter.create(connectionFactory, (writer) -> writer.immediateWrites()));
		}

	}

	static class ReactiveOrders {

		private final AtomicInteger calls = new AtomicInteger();

		/** How many times a cached method ran (a method, as the bean is a proxy). */
		public int calls() {
			return this.calls.get();
		}

		@Cacheable("monoOrders")
		public Mono<Order> order(long id) {
			return Mono.fromSupplier(() -> {
				this.calls.incrementAndGet();
				return Order.sample(id, null);
			});
		}

		@Cacheable("fluxOrders")
		public Flux<Order> orders(long id) {
			return Flux.defer(() -> {
				this.calls.incrementAndGet();
				return Flux.just(Order.sample(id, null), Order.sample(id + 1, "second"));
			});
		}

		@Cacheable("futureOrders")
		public CompletableFuture<Order> future(long id) {
			return CompletableFuture.supplyAsync(() -> {
				this.calls.incrementAndGet();
				return Order.sample(id, null);
			});
		}

	}

}
