package dev.slipcase.redis.autoconfigure.metrics;

import java.time.Duration;

import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.cache.SlipcaseCacheAutoConfiguration;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The meters of the near tier ({@link NearCacheMeters}) in a Boot app with two caches against the
 * shared real Redis: one set per cache, tagged with the cache and its manager, that follow the
 * tier's counters as the {@code Cache} API reads and writes, and none without a near tier.
 */
class NearCacheMetersTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final RedisServer redis = RedisServers.shared();

	private static final String PREFIX = "near-meters-" + Long.toHexString(System.nanoTime()) + ":";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class,
				SlipcaseCacheAutoConfiguration.class, SlipcaseMetricsAutoConfiguration.class))
		.withUserConfiguration(CachingApp.class)
		.withPropertyValues(RedisProperties.of(redis))
		.withPropertyValues("spring.cache.type=redis", "spring.cache.cache-names=orders,others",
				"spring.cache.redis.key-prefix=" + PREFIX);

	private final ApplicationContextRunner withRegistry = this.runner.withBean(MeterRegistry.class,
			SimpleMeterRegistry::new);

	private final ApplicationContextRunner near = this.withRegistry
		.withPropertyValues("slipcase.redis.cache.near.enabled=true");

	@Test
	void eachNearTierHasItsMetersTaggedWithTheCacheAndItsManager() {
		this.near.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			for (String cache : new String[] { "orders", "others" }) {
				for (String result : new String[] { "hit", "miss", "bypassed" }) {
					assertThat(meter(registry, NearCacheMeters.READS, cache).tag("result", result).functionCounter())
						.isNotNull();
				}
				assertThat(meter(registry, NearCacheMeters.INVALIDATIONS, cache).functionCounter()).isNotNull();
				assertThat(meter(registry, NearCacheMeters.FLUSHES, cache).functionCounter()).isNotNull();
				assertThat(meter(registry, NearCacheMeters.SIZE, cache).gauge()).isNotNull();
				assertThat(meter(registry, NearCacheMeters.TRUSTED, cache).gauge()).isNotNull();
			}
			assertThat(registry.find(NearCacheMeters.READS).functionCounters()).hasSize(6);
		});
	}

	@Test
	void aTierMadeForACacheCreatedOnFirstUseGetsItsMetersThen() {
		this.near.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find(NearCacheMeters.READS).tag("cache", "late").functionCounters()).isEmpty();
			context.getBean(CacheManager.class).getCache("late");
			assertThat(meter(registry, NearCacheMeters.READS, "late").tag("result", "hit").functionCounter())
				.isNotNull();
			assertThat(meter(registry, NearCacheMeters.TRUSTED, "late").gauge()).isNotNull();
			assertThat(registry.find(NearCacheMeters.READS).functionCounters()).hasSize(9);
		});
	}

	@Test
	void theMetersFollowTheTierAsTheCacheIsRead() {
		this.near.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			NearCache tier = nearTier(context, "orders");
			Gauge trusted = meter(registry, NearCacheMeters.TRUSTED, "orders").gauge();
			FunctionCounter hits = meter(registry, NearCacheMeters.READS, "orders").tag("result", "hit").functionCounter();
			FunctionCounter misses = meter(registry, NearCacheMeters.READS, "orders").tag("result", "miss")
				.functionCounter();
			FunctionCounter invalidations = meter(registry, NearCacheMeters.INVALIDATIONS, "orders").functionCounter();
			FunctionCounter flushes = meter(registry, NearCacheMeters.FLUSHES, "orders").functionCounter();
			Gauge size = meter(registry, NearCacheMeters.SIZE, "orders").gauge();
			Wait.until(TIMEOUT, tier::isTrusted);
			assertThat(trusted.value()).isEqualTo(1);
			assertThat(hits.count()).isZero();
			assertThat(size.value()).isZero();

			Cache orders = context.getBean(CacheManager.class).getCache("orders");
			orders.put("1", "first order"); // held at once: Redis does not report it back
			assertThat(orders.get("2")).isNull(); // a miss
			// Redis reports another client's write under the tracked prefix
			redis.command("SET", PREFIX + "orders::3", "another client's");
			Wait.until(TIMEOUT, () -> invalidations.count() >= 1);
			assertThat(invalidations.count()).isEqualTo(tier.invalidations());
			Wait.until(TIMEOUT, () -> "first order".equals(orders.get("1", String.class)) && hits.count() >= 3);
			assertThat(misses.count()).isPositive().isEqualTo(tier.misses());
			assertThat(hits.count()).isEqualTo(tier.hits());
			assertThat(size.value()).isEqualTo(1);

			double flushed = flushes.count();
			orders.clear();
			assertThat(flushes.count()).isGreaterThan(flushed).isEqualTo(tier.flushes());
			assertThat(size.value()).isZero();
		});
	}

	@Test
	void aTierBypassedUntilTrackingIsTrustedCountsBypassedReads() {
		this.near.withPropertyValues(RedisProperties.unreachable()).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			NearCache tier = nearTier(context, "orders");
			assertThat(tier.isTrusted()).isFalse();
			FunctionCounter bypassed = meter(registry, NearCacheMeters.READS, "orders").tag("result", "bypassed")
				.functionCounter();
			assertThat(meter(registry, NearCacheMeters.TRUSTED, "orders").gauge().value()).isZero();
			assertThat(bypassed.count()).isZero();
			// nothing listens there: the read goes to Redis and fails, counted as bypassed first
			Cache orders = context.getBean(CacheManager.class).getCache("orders");
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> orders.get("1"));
			assertThat(bypassed.count()).isEqualTo(1).isEqualTo(tier.bypassed());
		});
	}

	@Test
	void withoutANearTierThereAreNoNearMeters() {
		this.withRegistry.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(SlipcaseMeters.class);
			assertThat(context.getBean(CacheManager.class)).isNotInstanceOf(NearCacheManager.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.getMeters())
				.noneMatch((meter) -> meter.getId().getName().startsWith("slipcase.redis.cache.near."));
		});
	}

	@Test
	void closingTheContextRemovesTheMetersFromARegistryThatOutlivesIt() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		this.runner.withBean(MeterRegistry.class, () -> registry)
			.withPropertyValues("slipcase.redis.cache.near.enabled=true")
			.run((context) -> assertThat(registry.find(NearCacheMeters.READS).functionCounters()).hasSize(6));
		assertThat(registry.getMeters())
			.noneMatch((meter) -> meter.getId().getName().startsWith("slipcase.redis.cache.near."));
	}

	private static RequiredSearch meter(MeterRegistry registry, String name, String cache) {
		return registry.get(name).tags("cache", cache, "cache.manager", "cacheManager");
	}

	private static NearCache nearTier(ApplicationContext context, String cache) {
		return ((NearCacheManager) context.getBean(CacheManager.class)).nearTiers().get(cache);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class CachingApp {

	}

}
