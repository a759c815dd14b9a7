package dev.slipcase.redis.autoconfigure.endpoint;

import java.time.Duration;

import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.cache.SlipcaseCacheAutoConfiguration;
import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint.NearCacheDescriptor;
import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint.SlipcaseDescriptor;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code nearCaches} section of the {@code slipcase} endpoint in a Boot app with two caches
 * against the shared real Redis: each near tier with its counters as the {@code Cache} API moved
 * them, and no section without a near tier.
 */
class NearCacheEndpointTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final RedisServer redis = RedisServers.shared();

	private static final String PREFIX = "near-endpoint-" + Long.toHexString(System.nanoTime()) + ":";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, CacheAutoConfiguration.class,
				SlipcaseRedisAutoConfiguration.class,
				SlipcaseCacheAutoConfiguration.class, SlipcaseEndpointAutoConfiguration.class))
		.withUserConfiguration(CachingApp.class)
		.withPropertyValues(RedisProperties.of(redis))
		.withPropertyValues("management.endpoints.web.exposure.include=slipcase", "spring.cache.type=redis",
				"spring.cache.cache-names=orders,others",
				"spring.cache.redis.key-prefix=" + PREFIX);

	@Test
	void eachNearTierIsShownWithItsCounters() {
		this.runner.withPropertyValues("slipcase.redis.cache.near.enabled=true").run((context) -> {
			NearCache tier = ((NearCacheManager) context.getBean(CacheManager.class)).nearTiers().get("orders");
			Wait.until(TIMEOUT, tier::isTrusted);
			Cache orders = context.getBean(CacheManager.class).getCache("orders");
			orders.put("1", "first order"); // held at once
			assertThat(orders.get("2")).isNull(); // a miss
			redis.command("SET", PREFIX + "orders::3", "another client's"); // reported
			Wait.until(TIMEOUT, () -> tier.invalidations() >= 1);
			Wait.until(TIMEOUT, () -> "first order".equals(orders.get("1", String.class)) && tier.hits() >= 3);

			SlipcaseDescriptor descriptor = context.getBean(SlipcaseEndpoint.class).slipcase();
			assertThat(descriptor.nearCaches()).containsOnlyKeys("orders", "others");
			NearCacheDescriptor shown = descriptor.nearCaches().get("orders");
			assertThat(shown.cacheManager()).isEqualTo("cacheManager");
			assertThat(shown.trusted()).isTrue();
			assertThat(shown.size()).isEqualTo(1);
			assertThat(shown.hits()).isGreaterThanOrEqualTo(3).isEqualTo(tier.hits());
			assertThat(shown.misses()).isPositive().isEqualTo(tier.misses());
			assertThat(shown.bypassed()).isEqualTo(tier.bypassed());
			assertThat(shown.invalidations()).isPositive().isEqualTo(tier.invalidations());
			assertThat(shown.flushes()).isEqualTo(tier.flushes());
			assertThat(descriptor.nearCaches().get("others").hits()).isZero();

			JsonNode json = JsonMapper.builder().build().valueToTree(descriptor);
			JsonNode near = json.get("nearCaches").get("orders");
			assertThat(near.get("trusted").asBoolean()).isTrue();
			assertThat(near.get("size").asLong()).isEqualTo(1);
			assertThat(near.get("hits").asLong()).isEqualTo(shown.hits());
			for (String field : new String[] { "misses", "bypassed", "invalidations", "flushes" }) {
				assertThat(near.has(field)).as(field).isTrue();
			}

			orders.clear();
			NearCacheDescriptor cleared = context.getBean(SlipcaseEndpoint.class).slipcase().nearCaches().get("orders");
			assertThat(cleared.size()).isZero();
			assertThat(cleared.flushes()).isGreaterThan(shown.flushes());
		});
	}

	@Test
	void withoutANearTierThereIsNoSection() {
		this.runner.run((context) -> {
			assertThat(context.getBean(CacheManager.class)).isNotInstanceOf(NearCacheManager.class);
			SlipcaseDescriptor descriptor = context.getBean(SlipcaseEndpoint.class).slipcase();
			assertThat(descriptor.nearCaches()).isNull();
			JsonNode json = JsonMapper.builder().build().valueToTree(descriptor);
			assertThat(json.has("nearCaches")).isFalse();
			assertThat(json.has("sharded")).isTrue();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableCaching
	static class CachingApp {

	}

}
