package dev.slipcase.redis.autoconfigure.cache;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.SlipcaseSerializerFamilyCustomizer;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.autoconfigure.fixtures.Page;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A small Boot app with {@code @EnableCaching} and {@code @Cacheable} methods against a real
 * Redis: Slipcase's serializers in the cache, its templates, and values other serializers wrote.
 */
class SlipcaseCacheIntegrationTests {

	private static final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
		.withUserConfiguration(CachingApp.class)
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "spring.cache.type=redis",
				"spring.cache.redis.key-prefix=" + getClass().getSimpleName() + "-" + System.nanoTime() + ":",
				"slipcase.redis.types.order.type=" + Order.class.getName());

	@Test
	void cachedRecordsWithJavaTimeFieldsGenericsAndNullsRoundTrip() {
		this.runner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
			assertThat(service.order(1)).isEqualTo(Order.sample(1, null));
			assertThat(service.calls()).isEqualTo(1);
			byte[] stored = raw(context, key(context, "orders", 1));
			// one type behind the cache: plain JSON, no type id, no class name
			assertThat(new String(stored, StandardCharsets.UTF_8)).startsWith("{\"id\":1")
				.contains("\"placed\":\"2026-11-21T10:15:30.123456Z\"")
				.contains("\"note\":null");
		});
	}

	@Test
	void cachedGenericValuesRoundTripWithTheirTypeArguments() {
		this.runner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			Page<Order> first = service.page(2);
			Page<Order> second = service.page(2);
			assertThat(service.calls()).isEqualTo(1);
			assertThat(second).isEqualTo(first);
			assertThat(second.items().get(0)).isInstanceOf(Order.class);
		});
	}

	@Test
	void aCachedNullIsAHit() {
		this.runner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			assertThat(service.nothing(3)).isNull();
			assertThat(service.nothing(3)).isNull();
			assertThat(service.calls()).isEqualTo(1);
		});
	}

	@Test
	void perCacheSettingsChooseFormatCompressionAndTtl() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.caches.big.ttl=5m", "slipcase.redis.cache.caches.big.format=protostuff",
					"slipcase.redis.cache.caches.big.compression=zstd")
			.run((context) -> {
				OrderService service = context.getBean(OrderService.class);
				Order big = service.big(4);
				assertThat(service.big(4)).isEqualTo(big);
				assertThat(service.calls()).isEqualTo(1);
				String key = key(context, "big", 4);
				byte[] stored = raw(context, key);
				assertThat(stored[0]).isNotEqualTo((byte) '[');
				assertThat(stored.length).isLessThan(big.note().length());
				Long ttl = context.getBean(StringRedisTemplate.class).getExpire(key);
				assertThat(ttl).isBetween(200L, 300L);
			});
	}

	@Test
	void aJdkSerializedEntryIsAMissWhenConfigured() {
		this.runner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			String key = key(context, "orders", 5);
			writeRaw(context, key, new JdkSerializationRedisSerializer().serialize("written before Slipcase"));
			assertThat(service.order(5)).isEqualTo(Order.sample(5, null));
			assertThat(service.calls()).isEqualTo(1);
			assertThat(new String(raw(context, key), StandardCharsets.UTF_8)).startsWith("{\"id\":5,");
		});
	}

	@Test
	void aJdkSerializedEntryFailsWhenNotTreatedAsAMiss() {
		this.runner.withPropertyValues("slipcase.redis.cache.unreadable-as-miss=false").run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			writeRaw(context, key(context, "orders", 6),
					new JdkSerializationRedisSerializer().serialize("written before Slipcase"));
			assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> service.order(6));
		});
	}

	@Test
	void anEntryWrittenBySpringsJsonSerializerIsAHit() {
		this.runner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			writeRaw(context, key(context, "orders", 7), RedisSerializer.json().serialize(Order.sample(7, "stock")));
			assertThat(service.order(7)).isEqualTo(Order.sample(7, "stock"));
			assertThat(service.calls()).isEqualTo(0);
		});
	}

	@Test
	void aValueWrittenBySpringsJsonSerializerIsReadableThroughTheSlipcaseTemplates() {
		this.runner.withPropertyValues("slipcase.redis.redis-template.enabled=true").run((context) -> {
			String key = getClass().getSimpleName() + ":legacy:" + System.nanoTime();
			writeRaw(context, key, RedisSerializer.json().serialize(Order.sample(8, null)));
			RedisTemplate<String, Object> slipcase = template(context, "slipcaseRedisTemplate");
			assertThat(slipcase.opsForValue().get(key)).isEqualTo(Order.sample(8, null));
			RedisTemplate<String, Object> boot = template(context, "redisTemplate");
			assertThat(boot.opsForValue().get(key)).isEqualTo(Order.sample(8, null));
			slipcase.delete(key);
		});
	}

	@Test
	void theSlipcaseTemplateRoundTripsValuesOfSeveralTypes() {
		this.runner.run((context) -> {
			RedisTemplate<String, Object> template = template(context, "slipcaseRedisTemplate");
			String prefix = getClass().getSimpleName() + ":mixed:" + System.nanoTime();
			template.opsForValue().set(prefix + ":order", Order.sample(9, "n"));
			template.opsForValue().set(prefix + ":text", "plain");
			assertThat(template.opsForValue().get(prefix + ":order")).isEqualTo(Order.sample(9, "n"));
			assertThat(template.opsForValue().get(prefix + ":text")).isEqualTo("plain");
			template.delete(List.of(prefix + ":order", prefix + ":text"));
		});
	}

	@Test
	void stringRedisTemplateKeepsWorking() {
		this.runner.run((context) -> {
			StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
			String key = getClass().getSimpleName() + ":string:" + System.nanoTime();
			template.opsForValue().set(key, "42");
			assertThat(template.opsForValue().increment(key)).isEqualTo(43L);
			assertThat(template.opsForValue().get(key)).isEqualTo("43");
			template.delete(key);
		});
	}

	@Test
	void cachesNamedInSpringCacheCacheNamesAlsoStoreSlipcaseValues() {
		this.runner.withPropertyValues("spring.cache.cache-names=early").run((context) -> {
			org.springframework.cache.Cache cache = context.getBean(RedisCacheManager.class).getCache("early");
			cache.put(10L, Order.sample(10, null));
			assertThat(new String(raw(context, key(context, "early", 10)), StandardCharsets.UTF_8))
				.startsWith("[\"order\",{\"id\":10");
			assertThat(cache.get(10L, Order.class)).isEqualTo(Order.sample(10, null));
		});
	}

	@SuppressWarnings("unchecked")
	private static RedisTemplate<String, Object> template(org.springframework.context.ApplicationContext context,
			String name) {
		return context.getBean(name, RedisTemplate.class);
	}

	private static String key(org.springframework.context.ApplicationContext context, String cache, Object id) {
		String prefix = context.getEnvironment().getProperty("spring.cache.redis.key-prefix");
		return prefix + cache + "::" + id;
	}

	private static byte[] raw(org.springframework.context.ApplicationContext context, String key) {
		byte[] value = context.getBean(StringRedisTemplate.class)
			.execute((org.springframework.data.redis.core.RedisCallback<byte[]>) (connection) -> connection.stringCommands()
				.get(key.getBytes(StandardCharsets.UTF_8)));
		assertThat(value).as("value at %s", key).isNotNull();
		return value;
	}

	private static void writeRaw(org.springframework.context.ApplicationContext context, String key, byte[] value) {
		context.getBean(StringRedisTemplate.class)
			.execute((org.springframework.data.redis.core.RedisCallback<Boolean>) (connection) -> connection.stringCommands()
				.set(key.getBytes(StandardCharsets.UTF_8), value));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class CachingApp {

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

		/**
		 * Spring Data Redis 4 writes cache entries asynchronously by default; immediate writes
		 * make what a test reads right after a call deterministic.
		 */
		@Bean
		RedisCacheManagerBuilderCustomizer immediateWrites(RedisConnectionFactory connectionFactory) {
			return (builder) -> builder
				.cacheWriter(RedisCacheWriter.create(connectionFactory, (writer) -> writer.immediateWrites()));
		}

		@Bean
		SlipcaseSerializerFamilyCustomizer pages() {
			return (builder) -> builder.allow("order-page", new TypeReference<Page<Order>>() {
			});
		}

	}

	static class OrderService {

		private final AtomicInteger calls = new AtomicInteger();

		/** How many times a cached method ran (a method, as the bean is a proxy). */
		public int calls() {
			return this.calls.get();
		}

		@Cacheable("orders")
		public Order order(long id) {
			this.calls.incrementAndGet();
			return Order.sample(id, null);
		}

		@Cacheable("pages")
		public Page<Order> page(long id) {
			this.calls.incrementAndGet();
			return new Page<>(List.of(Order.sample(id, "first"), Order.sample(id + 1, null)), 2);
		}

		@Cacheable("nothing")
		public @Nullable Order nothing(long id) {
			this.calls.incrementAndGet();
			return null;
		}

		@Cacheable("big")
		public Order big(long id) {
			this.calls.incrementAndGet();
			return Order.sample(id, "a long note that repeats itself. ".repeat(100));
		}

	}

}
