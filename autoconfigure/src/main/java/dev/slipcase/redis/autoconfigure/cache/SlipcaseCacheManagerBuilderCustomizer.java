package dev.slipcase.redis.autoconfigure.cache;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.core.Ordered;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * Makes Boot's Redis cache manager store values with Slipcase's serializers, keeping everything
 * else Boot configured ({@code spring.cache.redis.*}: TTL, key prefix, null values): each cache a
 * method fills gets a serializer typed by what its methods return, every other cache the
 * family's {@code Object} serializer ({@link CacheValueSerializers}); the cache writer names keys
 * in errors and repairs entries a cache cannot use ({@link SlipcaseCacheWriter}); and
 * {@code slipcase.redis.cache.caches.<name>.*} applies. Runs before the application's own
 * {@code RedisCacheManagerBuilderCustomizer}s, which therefore win. Thread-safe.
 */
public final class SlipcaseCacheManagerBuilderCustomizer implements RedisCacheManagerBuilderCustomizer, Ordered {

	private final CacheValueSerializers serializers;

	private final SlipcaseRedisProperties.Cache properties;

	private final List<SlipcaseCacheConfigurationCustomizer> customizers;

	private final RedisConnectionFactory connectionFactory;

	/**
	 * A customizer.
	 * @param serializers each cache's value serializer
	 * @param properties {@code slipcase.redis.cache.*}
	 * @param customizers applied to every configuration, in order
	 * @param connectionFactory the connection factory Boot's cache manager uses
	 */
	public SlipcaseCacheManagerBuilderCustomizer(CacheValueSerializers serializers,
			SlipcaseRedisProperties.Cache properties, List<SlipcaseCacheConfigurationCustomizer> customizers,
			RedisConnectionFactory connectionFactory) {
		this.serializers = serializers;
		this.properties = properties;
		this.customizers = List.copyOf(customizers);
		this.connectionFactory = connectionFactory;
	}

	@Override
	public void customize(RedisCacheManagerBuilder builder) {
		// The writer Boot's builder starts from, with Slipcase's additions. With a near tier, a put
		// must be in Redis when it returns: Spring Data's asynchronous writes go out through the
		// reactive connection in no promised order, so that a read after it, or a later put of
		// the same key, could overtake it.
		RedisCacheWriter writer = this.properties.getNear().isEnabled()
				? RedisCacheWriter.create(this.connectionFactory, (configurer) -> configurer.immediateWrites())
				: RedisCacheWriter.nonLockingRedisCacheWriter(this.connectionFactory);
		builder.cacheWriter(new SlipcaseCacheWriter(writer, this.serializers.byCache(), this.serializers.defaults()));
		RedisCacheConfiguration defaults = customized(null,
				withSerializer(builder.cacheDefaults(), this.serializers.defaults()));
		builder.cacheDefaults(defaults);
		// Caches named before this customizer (spring.cache.cache-names) were given Boot's defaults.
		Set<String> names = new LinkedHashSet<>(builder.getConfiguredCaches());
		names.addAll(this.serializers.byCache().keySet());
		for (String name : names) {
			CacheValueSerializer serializer = this.serializers.byCache().getOrDefault(name, this.serializers.defaults());
			RedisCacheConfiguration configuration = withSerializer(
					builder.getCacheConfigurationFor(name).orElse(defaults), serializer);
			SlipcaseRedisProperties.CacheSpec spec = this.properties.getCaches().get(name);
			if (spec != null && spec.getTtl() != null) {
				configuration = configuration.entryTtl(spec.getTtl());
			}
			builder.withCacheConfiguration(name, customized(name, configuration));
		}
	}

	private static RedisCacheConfiguration withSerializer(RedisCacheConfiguration configuration,
			CacheValueSerializer serializer) {
		return configuration.serializeKeysWith(KeyNamingSerializationPair.of(configuration.getKeySerializationPair()))
			.serializeValuesWith(SerializationPair.fromSerializer(serializer));
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
