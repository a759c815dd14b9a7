package dev.slipcase.redis.autoconfigure.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.slipcase.redis.buffer.BufferAllocators;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Publishes Slipcase's meters ({@link SlipcaseMeters}) to the application's {@link MeterRegistry}
 * when Micrometer is on the class path and a registry is defined (Boot's metrics auto-configuration
 * defines one). Backs off when {@code slipcase.redis.metrics.enabled=false} or the application
 * defines its own {@link SlipcaseMeters}.
 * <p>
 * Buffer memory is reported for Netty's default allocator ({@code ByteBufAllocator.DEFAULT}, tag
 * {@code allocator=default}), Netty's shared pooled allocator ({@code PooledByteBufAllocator.DEFAULT},
 * which value templates take their buffers from by default; tag {@code allocator=pooled}) and every
 * {@link ByteBufAllocator} bean, under its bean name.
 * <p>
 * The near tiers of {@code NearCacheManager} beans ({@code slipcase.redis.cache.near.enabled}) are
 * reported by {@link NearCacheMeters}, when Caffeine is on the class path; it backs off when the
 * application defines its own.
 */
@AutoConfiguration(afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "slipcase.redis.metrics.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SlipcaseMetricsProperties.class)
public final class SlipcaseMetricsAutoConfiguration {

	/** The allocator tag of Netty's {@code ByteBufAllocator.DEFAULT}. */
	public static final String DEFAULT_ALLOCATOR = "default";

	/** The allocator tag of Netty's {@code PooledByteBufAllocator.DEFAULT}. */
	public static final String POOLED_ALLOCATOR = "pooled";

	@Bean
	@ConditionalOnMissingBean
	SlipcaseMeters slipcaseMeters(MeterRegistry registry, ListableBeanFactory beanFactory) {
		Map<String, ByteBufAllocator> allocators = new LinkedHashMap<>();
		allocators.put(DEFAULT_ALLOCATOR, BufferAllocators.defaultAllocator());
		allocators.put(POOLED_ALLOCATOR, PooledByteBufAllocator.DEFAULT);
		allocators.putAll(beanFactory.getBeansOfType(ByteBufAllocator.class));
		return SlipcaseMeters.bind(registry, allocators);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "com.github.benmanes.caffeine.cache.Caffeine")
	static class NearCacheMetersConfiguration {

		@Bean
		@ConditionalOnMissingBean
		NearCacheMeters slipcaseNearCacheMeters(MeterRegistry registry, ListableBeanFactory beanFactory) {
			return new NearCacheMeters(registry, beanFactory);
		}

	}

}
