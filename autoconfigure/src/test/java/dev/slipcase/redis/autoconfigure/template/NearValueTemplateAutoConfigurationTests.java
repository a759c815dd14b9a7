package dev.slipcase.redis.autoconfigure.template;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.slipcase.redis.autoconfigure.Order;
import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheTracking;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The near tier of the {@code slipcaseValueTemplate} bean ({@code slipcase.redis.template.near.*})
 * against a real Redis (7.0): off by default and without Caffeine, refused without key prefixes,
 * and on, reads served locally and another client's write seen.
 */
class NearValueTemplateAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(15);

	private final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseValueTemplateAutoConfiguration.class))
		.withPropertyValues(RedisProperties.of(this.redis))
		.withPropertyValues("slipcase.redis.template.types.order=" + Order.class.getName());

	@Test
	void offByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasBean("slipcaseValueTemplate");
			assertThat(context).doesNotHaveBean(NearCache.class).doesNotHaveBean(NearCacheTracking.class);
		});
	}

	@Test
	void offWithoutCaffeine() {
		this.runner.withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
			.withPropertyValues("slipcase.redis.template.near.enabled=true",
					"slipcase.redis.template.near.key-prefixes=near-vt:")
			.run((context) -> assertThat(context).doesNotHaveBean(NearCache.class));
	}

	@Test
	void noKeyPrefixFailsNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.template.near.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("slipcase.redis.template.near.key-prefixes"));
	}

	@Test
	void readsGoThroughTheNearTierAndAnotherClientsWriteIsSeen() {
		this.runner
			.withPropertyValues("slipcase.redis.template.near.enabled=true",
					"slipcase.redis.template.near.key-prefixes=near-vt:", "slipcase.redis.template.near.heartbeat=500ms")
			.run((context) -> {
				NearCache near = context.getBean(SlipcaseValueTemplateAutoConfiguration.NEAR_CACHE, NearCache.class);
				Wait.until(TIMEOUT, near::isTrusted);
				@SuppressWarnings("unchecked")
				ValueTemplate<Object> template = context.getBean("slipcaseValueTemplate", ValueTemplate.class);
				Order order = new Order("1", Instant.EPOCH, List.of("x"), null);
				template.set("near-vt:1", order);
				assertThat(template.get("near-vt:1")).isEqualTo(order);
				Wait.until(TIMEOUT, () -> near.peek("near-vt:1") != null || template.get("near-vt:1") == null);
				assertThat(template.get("near-vt:1")).isEqualTo(order);
				assertThat(near.hits()).isPositive();

				this.redis.command("DEL", "near-vt:1");
				Wait.until(TIMEOUT, () -> template.get("near-vt:1") == null);
			});
	}

}
