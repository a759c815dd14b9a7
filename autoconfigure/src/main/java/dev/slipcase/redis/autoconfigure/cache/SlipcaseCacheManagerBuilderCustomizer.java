package dev.slipcase.redis.autoconfigure.cache;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseSerializerFamily;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.core.Ordered;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Makes Boot's Redis cache manager store values with Slipcase's {@code Object} serializer, keeping
 * everything else Boot configured ({@code spring.cache.redis.*}: TTL, key prefix, null values),
 * and applies {@code slipcase.redis.cache.caches.<name>.*}. Runs before the application's own
 * {@code RedisCacheManagerBuilderCustomizer}s, which therefore win. Thread-safe.
 */
public final class SlipcaseCacheManagerBuilderCustomizer implements RedisCacheManagerBuilderCustomizer, Ordered {

	private final SlipcaseSerializerFamily family;

	private final SlipcaseRedisProperties.Cache properties;

	private final List<SlipcaseCacheConfigurationCustomizer> customizers;

	private final Map<String, RedisSerializer<Object>> cacheSerializers;

	/**
	 * A customizer.
	 * @param family the serializers
	 * @param properties {@code slipcase.redis.cache.*}
	 * @param customizers applied to every configuration, in order
	 * @param cacheSerializers each configured cache's value serializer, by cache name (see
	 * {@link SlipcaseSerializerFamily#valueSerializer(dev.slipcase.redis.serializer.FormatKind, String)})
	 */
	public SlipcaseCacheManagerBuilderCustomizer(SlipcaseSerializerFamily family, SlipcaseRedisProperties.Cache properties,
			List<SlipcaseCacheConfigurationCustomizer> customizers, Map<String, RedisSerializer<Object>> cacheSerializers) {
		this.family = family;
		this.properties = properties;
		this.customizers = List.copyOf(customizers);
		this.cacheSerializers = Map.copyOf(cacheSerializers);
	}

	@Override
	public void customize(RedisCacheManagerBuilder builder) {
		RedisCacheConfiguration defaults = customized(null,
				withValues(builder.cacheDefaults(), this.family.valueSerializer(), "every cache"));
		builder.cacheDefaults(defaults);
		// Caches named before this customizer (spring.cache.cache-names) were given Boot's defaults.
		Set<String> names = new LinkedHashSet<>(builder.getConfiguredCaches());
		names.addAll(this.properties.getCaches().keySet());
		for (String name : names) {
			RedisCacheConfiguration configuration = builder.getCacheConfigurationFor(name)
				.map((existing) -> existing.serializeValuesWith(defaults.getValueSerializationPair()))
				.orElse(defaults);
			SlipcaseRedisProperties.CacheSpec spec = this.properties.getCaches().get(name);
			if (spec != null) {
				if (spec.getTtl() != null) {
					configuration = configuration.entryTtl(spec.getTtl());
				}
				RedisSerializer<Object> serializer = this.cacheSerializers.get(name);
				if (serializer != null) {
					configuration = withValues(configuration, serializer, name);
				}
			}
			builder.withCacheConfiguration(name, customized(name, configuration));
		}
	}

	private RedisCacheConfiguration withValues(RedisCacheConfiguration configuration, RedisSerializer<Object> serializer,
			String cacheName) {
		RedisSerializer<Object> values = this.properties.isUnreadableAsMiss()
				? new UnreadableAsMissSerializer(serializer, cacheName) : serializer;
		return configuration.serializeValuesWith(SerializationPair.fromSerializer(values));
	}

	private RedisCacheConfiguration customized(@Nullable String name, RedisCacheConfiguration configuration) {
		RedisCacheConfiguration result = configuration;
		for (SlipcaseCacheConfigurationCustomizer customizer : this.customizers) {
			result = customizer.customize(name, result);
		}
		return result;
	}

	/** Runs first, so that the application's own customizers see, and can change, its settings. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 100;
	}

}
