package dev.slipcase.redis.autoconfigure.cache;

import dev.slipcase.redis.autoconfigure.CachedMethods;
import dev.slipcase.redis.autoconfigure.Settings;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.autoconfigure.SwitchOverSerializers;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.annotation.AnnotationCacheOperationSource;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Spring Cache values through Slipcase's serializers, when spring-boot-cache is present: a
 * customizer of Boot's Redis cache manager with each cache typed by its cached methods, after
 * {@link SlipcaseRedisAutoConfiguration} made the serializer family. With
 * {@code slipcase.redis.cache.near.enabled}, the cache manager gets a near tier
 * ({@link NearCacheManagerPostProcessor}).
 */
@AutoConfiguration(after = SlipcaseRedisAutoConfiguration.class)
@ConditionalOnClass(RedisCacheManagerBuilderCustomizer.class)
@ConditionalOnBean({ SlipcaseSerializerFamily.class, SwitchOverSerializers.class })
@ConditionalOnBooleanProperty(name = "slipcase.redis.cache.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SlipcaseRedisProperties.class)
public final class SlipcaseCacheAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean({ RedisCacheConfiguration.class, SlipcaseCacheManagerBuilderCustomizer.class })
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	SlipcaseCacheManagerBuilderCustomizer slipcaseCacheManagerBuilderCustomizer(SlipcaseRedisProperties properties,
			SlipcaseSerializerFamily family, ObjectProvider<SlipcaseCacheConfigurationCustomizer> customizers,
			ConfigurableListableBeanFactory beanFactory, RedisConnectionFactory connectionFactory,
			ObjectProvider<CacheOperationSource> cacheOperationSources, SwitchOverSerializers switchOver) {
		ClassLoader classLoader = Settings.classLoader(beanFactory);
		properties.getCache().getCaches().forEach((name, spec) -> {
			if (spec.getFormat() != null) {
				Settings.requireFormatLibrary(spec.getFormat(), "slipcase.redis.cache.caches." + name + ".format", classLoader);
			}
		});
		CacheOperationSource operations = cacheOperationSources.getIfUnique(AnnotationCacheOperationSource::new);
		CacheValueSerializers serializers = new CacheValueSerializers(family, properties.getCache(),
				CachedMethods.find(beanFactory, operations), switchOver);
		return new SlipcaseCacheManagerBuilderCustomizer(serializers, properties.getCache(),
				customizers.orderedStream().toList(), connectionFactory);
	}

	/** The near tier, when Caffeine is on the class path and the tier is turned on. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "com.github.benmanes.caffeine.cache.Caffeine")
	@ConditionalOnBooleanProperty("slipcase.redis.cache.near.enabled")
	static class NearCacheConfiguration {

		@Bean
		static NearCacheManagerPostProcessor slipcaseNearCacheManagerPostProcessor(
				ObjectProvider<SlipcaseRedisProperties> properties,
				ObjectProvider<RedisConnectionFactory> connectionFactories) {
			return new NearCacheManagerPostProcessor(properties, connectionFactories);
		}

	}

}
