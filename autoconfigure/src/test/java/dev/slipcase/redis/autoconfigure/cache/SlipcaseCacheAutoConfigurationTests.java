package dev.slipcase.redis.autoconfigure.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/** Boot's Redis cache manager as Slipcase configures it (no Redis needed: nothing is stored). */
class SlipcaseCacheAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class, SlipcaseCacheAutoConfiguration.class))
		.withUserConfiguration(Caching.class)
		.withPropertyValues("spring.cache.type=redis", "spring.cache.cache-names=orders,catalogue",
				"slipcase.redis.types.order.type=" + Order.class.getName());

	@Test
	void withoutSpringCacheThereIsNoCacheCustomizer() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisCacheManagerBuilderCustomizer.class))
			.run((context) -> assertThat(context).hasSingleBean(SlipcaseSerializerFamily.class)
				.doesNotHaveBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void cacheCustomizerIsThereByDefault() {
		this.runner.run((context) -> assertThat(context).hasBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void cacheCustomizerBacksOffFromAUserCacheConfiguration() {
		this.runner.withBean(RedisCacheConfiguration.class, RedisCacheConfiguration::defaultCacheConfig)
			.run((context) -> assertThat(context).doesNotHaveBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void cacheCustomizerIsOffWhenDisabled() {
		this.runner.withPropertyValues("slipcase.redis.cache.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void aFamilyOfTheApplicationsOwnWithoutSlipcasesAutoConfigurationGivesNoCacheCustomizer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
					SlipcaseCacheAutoConfiguration.class))
			.withUserConfiguration(Caching.class)
			.withBean(SlipcaseSerializerFamily.class,
					() -> SlipcaseSerializerFamily.builder().allow("order", Order.class).build())
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void withoutTheSerializerFamilyThereIsNoCacheCustomizer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
					SlipcaseCacheAutoConfiguration.class))
			.withUserConfiguration(Caching.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("slipcaseCacheManagerBuilderCustomizer"));
	}

	@Test
	void cacheValuesAreWrittenWithTheFamilysSerializer() {
		this.runner.run((context) -> {
			RedisCacheConfiguration orders = configuration(context, "orders");
			String written = StandardCharsets.UTF_8
				.decode(orders.getValueSerializationPair().write(Order.sample(1, null)))
				.toString();
			assertThat(written).startsWith("[\"order\",{\"id\":1");
		});
	}

	@Test
	void writingJdkCachesWriteWhatSpringDatasJdkSerializerWritesAndReadBoth() {
		this.runner.withPropertyValues("slipcase.redis.cache.switch-over=write-jdk").run((context) -> {
			RedisCacheConfiguration orders = configuration(context, "orders");
			Order order = Order.sample(1, null);
			ByteBuffer written = orders.getValueSerializationPair().write(order);
			byte[] jdk = new JdkSerializationRedisSerializer().serialize(order);
			assertThat(written).isEqualTo(ByteBuffer.wrap(jdk));
			assertThat(orders.getValueSerializationPair().read(ByteBuffer.wrap(jdk))).isEqualTo(order);
			byte[] json = context.getBean(SlipcaseSerializerFamily.class).valueSerializer().serialize(order);
			assertThat(orders.getValueSerializationPair().read(ByteBuffer.wrap(json))).isEqualTo(order);
		});
	}

	@Test
	void readingJdkCachesWriteSlipcasesFormatAndStillReadJdkValues() {
		this.runner.withPropertyValues("slipcase.redis.cache.switch-over=read-jdk").run((context) -> {
			RedisCacheConfiguration orders = configuration(context, "orders");
			Order order = Order.sample(1, null);
			assertThat(StandardCharsets.UTF_8.decode(orders.getValueSerializationPair().write(order)).toString())
				.startsWith("[\"order\",{\"id\":1");
			byte[] jdk = new JdkSerializationRedisSerializer().serialize(order);
			assertThat(orders.getValueSerializationPair().read(ByteBuffer.wrap(jdk))).isEqualTo(order);
		});
	}

	@Test
	void doneCachesReadNoJdkValue() {
		this.runner.run((context) -> {
			byte[] jdk = new JdkSerializationRedisSerializer().serialize(Order.sample(1, null));
			assertThat(configuration(context, "orders").getValueSerializationPair().read(ByteBuffer.wrap(jdk))).isNull();
		});
	}

	@Test
	void aJdkLimitThatIsNotPositiveFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.jdk.max-depth=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("maxDepth must be positive"));
	}

	@Test
	void writingJdkACachedTypeThatIsNotSerializableFailsStartupNamingTheMethodAndTheProperty() {
		this.runner.withUserConfiguration(PlainLookups.class)
			.withPropertyValues("slipcase.redis.cache.switch-over=write-jdk")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Cache 'plain' writes JDK-serialized values")
				.hasMessageContaining("PlainLookups.plain(long)")
				.hasMessageContaining(Plain.class.getName() + " is not Serializable"));
		this.runner.withUserConfiguration(PlainLookups.class)
			.withPropertyValues("slipcase.redis.cache.switch-over=read-jdk")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void bootsCacheSettingsAreKept() {
		this.runner.withPropertyValues("spring.cache.redis.time-to-live=90s", "spring.cache.redis.cache-null-values=false")
			.run((context) -> {
				RedisCacheConfiguration orders = configuration(context, "orders");
				assertThat(orders.getTtlFunction().getTimeToLive("k", "v")).isEqualTo(Duration.ofSeconds(90));
				assertThat(orders.getAllowCacheNullValues()).isFalse();
			});
	}

	@Test
	void perCacheTtlComesFromProperties() {
		this.runner
			.withPropertyValues("spring.cache.redis.time-to-live=90s", "slipcase.redis.cache.caches.catalogue.ttl=10m")
			.run((context) -> {
				assertThat(configuration(context, "catalogue").getTtlFunction().getTimeToLive("k", "v"))
					.isEqualTo(Duration.ofMinutes(10));
				assertThat(configuration(context, "orders").getTtlFunction().getTimeToLive("k", "v"))
					.isEqualTo(Duration.ofSeconds(90));
			});
	}

	@Test
	void perCacheFormatAndCompressionComeFromProperties() {
		this.runner
			.withPropertyValues("slipcase.redis.cache.caches.catalogue.format=protostuff",
					"slipcase.redis.cache.caches.catalogue.compression=gzip")
			.run((context) -> {
				Order big = Order.sample(2, "repeated text ".repeat(200));
				ByteBuffer written = configuration(context, "catalogue").getValueSerializationPair().write(big);
				assertThat(written.get(written.position())).isNotEqualTo((byte) '[');
				assertThat(written.remaining()).isLessThan(big.note().length() / 4);
				assertThat(configuration(context, "catalogue").getValueSerializationPair().read(written)).isEqualTo(big);
			});
	}

	@Test
	void aCacheFormatProtostuffWithoutProtostuffFailsStartup() {
		this.runner.withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("io.protostuff"))
			.withPropertyValues("slipcase.redis.cache.caches.catalogue.format=protostuff")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("slipcase.redis.cache.caches.catalogue.format"));
	}

	@Test
	void unreadableEntriesAreMissesByDefault() {
		this.runner.run((context) -> assertThat(
				configuration(context, "orders").getValueSerializationPair().read(ByteBuffer.wrap(new byte[] { -84, -19, 0, 5 })))
			.isNull());
	}

	@Test
	void configurationCustomizersSeeEveryCacheAndTheDefaults() {
		this.runner
			.withBean(SlipcaseCacheConfigurationCustomizer.class,
					() -> (name, configuration) -> "catalogue".equals(name)
							? configuration.entryTtl(Duration.ofMinutes(7)).disableCachingNullValues() : configuration)
			.run((context) -> {
				assertThat(configuration(context, "catalogue").getTtlFunction().getTimeToLive("k", "v"))
					.isEqualTo(Duration.ofMinutes(7));
				assertThat(configuration(context, "catalogue").getAllowCacheNullValues()).isFalse();
				assertThat(configuration(context, "orders").getAllowCacheNullValues()).isTrue();
			});
	}

	@Test
	void theApplicationsOwnBuilderCustomizersRunAfterSlipcase() {
		this.runner
			.withBean(org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer.class,
					() -> (builder) -> builder.withCacheConfiguration("orders", RedisCacheConfiguration.defaultCacheConfig()))
			.run((context) -> {
				SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
				ByteBuffer written = configuration(context, "orders").getValueSerializationPair().write("text");
				assertThat(written.remaining()).isNotEqualTo(family.valueSerializer().serialize("text").length);
			});
	}

	private static RedisCacheConfiguration configuration(org.springframework.context.ApplicationContext context,
			String name) {
		RedisCacheConfiguration configuration = context.getBean(RedisCacheManager.class).getCacheConfigurations().get(name);
		assertThat(configuration).as("configuration of cache %s", name).isNotNull();
		return configuration;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class Caching {

	}

	/** A cached value JDK serialization cannot write. */
	record Plain(long id) {
	}

	@Configuration(proxyBeanMethods = false)
	static class PlainLookups {

		@Cacheable("plain")
		public List<Plain> plain(long id) {
			return List.of(new Plain(id));
		}

	}

}
