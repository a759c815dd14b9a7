package dev.slipcase.redis.autoconfigure;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.springdata.SlipcaseRedisTemplate;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.cache.annotation.AnnotationCacheOperationSource;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Auto-configuration of Slipcase's serializers on top of Boot's Redis connection factory: the
 * scratch-buffer allocator, the {@link SlipcaseSerializerFamily} (mapped from the properties by
 * {@link SerializerFamilyFactory}), a {@code slipcaseRedisTemplate} (and, with Reactor, a
 * {@code slipcaseReactiveRedisTemplate}: {@link SlipcaseReactiveRedisConfiguration}), and, when
 * switched on, Slipcase serializers in Boot's own {@code redisTemplate}; it imports the compressors
 * ({@link SlipcaseCompressionConfiguration}) and write coalescing
 * ({@link SlipcaseWriteCoalescingConfiguration}). Spring Cache, Spring Session, the templates and
 * the sharded template are auto-configured after it, each in its own package. Every bean backs off
 * when the application defines its own.
 */
@AutoConfiguration(after = { DataRedisAutoConfiguration.class, DataRedisReactiveAutoConfiguration.class })
@ConditionalOnClass(RedisOperations.class)
@EnableConfigurationProperties(SlipcaseRedisProperties.class)
@Import({ SlipcaseCompressionConfiguration.class, SlipcaseWriteCoalescingConfiguration.class,
		SlipcaseReactiveRedisConfiguration.class })
public final class SlipcaseRedisAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseBufferAllocator")
	ByteBufAllocator slipcaseBufferAllocator(SlipcaseRedisProperties properties) {
		SlipcaseRedisProperties.Buffer buffer = properties.getBuffer();
		return BufferAllocators.allocator(buffer.getAllocator(), buffer.isDirect());
	}

	@Bean
	@ConditionalOnMissingBean
	SlipcaseSerializerFamily slipcaseSerializerFamily(SlipcaseRedisProperties properties,
			ConfigurableListableBeanFactory beanFactory, ObjectProvider<CacheOperationSource> cacheOperationSources,
			@Qualifier("slipcaseBufferAllocator") ByteBufAllocator allocator,
			@Qualifier("slipcaseCompressors") CompressorLookup compressors,
			ObjectProvider<SlipcaseSerializerFamilyCustomizer> customizers, ObjectProvider<SlipcaseObserver> observers,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		SlipcaseSerializerFamily.Builder builder = new SerializerFamilyFactory(properties, beanFactory).builder(allocator,
				compressors, cacheOperationSources.getIfUnique(AnnotationCacheOperationSource::new));
		// this context's observers (its meters), so that they count this context's values only
		builder.observer(SlipcaseObservers.of(observers.orderedStream().toList()));
		observationRegistry.ifUnique(builder::observationRegistry);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		return SerializerFamilyFactory.build(builder);
	}

	@Bean
	@ConditionalOnMissingBean
	SwitchOverSerializers slipcaseSwitchOverSerializers(SlipcaseSerializerFamily family,
			SlipcaseRedisProperties properties, ConfigurableListableBeanFactory beanFactory) {
		return new SwitchOverSerializers(family, properties.getJdk(), Settings.classLoader(beanFactory));
	}

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseRedisTemplate")
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	RedisTemplate<String, Object> slipcaseRedisTemplate(RedisConnectionFactory connectionFactory,
			SlipcaseSerializerFamily family, ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers) {
		SlipcaseRedisTemplate<String, Object> template = new SlipcaseRedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		family.configure(template);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(template));
		return template;
	}

	@Bean
	@ConditionalOnBooleanProperty("slipcase.redis.redis-template.enabled")
	static BootRedisTemplatePostProcessor slipcaseBootRedisTemplatePostProcessor(
			ObjectProvider<SlipcaseSerializerFamily> family, ObjectProvider<SwitchOverSerializers> switchOver,
			ObjectProvider<SlipcaseRedisProperties> properties,
			ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers) {
		return new BootRedisTemplatePostProcessor(family, switchOver, properties, customizers);
	}

}
