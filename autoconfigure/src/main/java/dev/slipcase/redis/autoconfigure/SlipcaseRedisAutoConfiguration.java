package dev.slipcase.redis.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.slipcase.redis.autoconfigure.cache.CacheValueSerializers;
import dev.slipcase.redis.autoconfigure.cache.CachedMethods;
import dev.slipcase.redis.autoconfigure.cache.SlipcaseCacheConfigurationCustomizer;
import dev.slipcase.redis.autoconfigure.cache.SlipcaseCacheManagerBuilderCustomizer;
import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.serializer.CompressorLookup;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter.Choice;
import dev.slipcase.redis.serializer.SlipcaseRedisTemplate;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.TypeIds;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.compression.GzipCompressor;
import dev.slipcase.redis.serializer.compression.Lz4Compressor;
import dev.slipcase.redis.serializer.compression.ZstdCompressor;
import dev.slipcase.redis.serializer.compression.ZstdDictionaries;
import dev.slipcase.redis.serializer.compression.ZstdDictionary;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.cache.annotation.AnnotationCacheOperationSource;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of Slipcase's serializers on top of Boot's Redis connection factory: the
 * scratch-buffer allocator, the compressors, the {@link SlipcaseSerializerFamily}, a
 * {@code slipcaseRedisTemplate}, Slipcase serializers in Boot's own {@code redisTemplate} and in
 * Boot's Redis cache manager. Every bean backs off when the application defines its own.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass(RedisOperations.class)
@EnableConfigurationProperties(SlipcaseRedisProperties.class)
public final class SlipcaseRedisAutoConfiguration {

	static final String PROTOSTUFF_CLASS = "io.protostuff.runtime.RuntimeSchema";

	static final String ZSTD_CLASS = "com.github.luben.zstd.Zstd";

	static final String LZ4_CLASS = "net.jpountz.lz4.LZ4Factory";

	private static final String NONE = "none";

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseBufferAllocator")
	ByteBufAllocator slipcaseBufferAllocator(SlipcaseRedisProperties properties) {
		SlipcaseRedisProperties.Buffer buffer = properties.getBuffer();
		return BufferAllocators.allocator(buffer.getAllocator(), buffer.isDirect());
	}

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseGzipCompressor")
	Compressor slipcaseGzipCompressor(SlipcaseRedisProperties properties) {
		Integer level = levelFor(properties, GzipCompressor.NAME);
		return (level != null) ? withLevel(() -> GzipCompressor.create(level), level) : GzipCompressor.create();
	}

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseCompressors")
	CompressorLookup slipcaseCompressors(SlipcaseRedisProperties properties, ObjectProvider<Compressor> compressors) {
		List<Compressor> all = compressors.orderedStream().toList();
		CompressorLookup lookup = CompressorLookup.of(all);
		String algorithm = properties.getCompression().getAlgorithm().trim().toLowerCase(Locale.ROOT);
		requireCompressor(lookup, algorithm, "slipcase.redis.compression.algorithm");
		properties.getTypes()
			.forEach((id, type) -> requireCompressor(lookup, type.getCompression(), "slipcase.redis.types." + id
					+ ".compression"));
		properties.getCache()
			.getCaches()
			.forEach((name, cache) -> requireCompressor(lookup, cache.getCompression(),
					"slipcase.redis.cache.caches." + name + ".compression"));
		if (!properties.getCompression().getZstdDictionaries().isEmpty() && lookup.byName(ZstdCompressor.NAME) == null) {
			throw missingLibrary("slipcase.redis.compression.zstd-dictionaries", ZstdCompressor.NAME);
		}
		return lookup;
	}

	@Bean
	@ConditionalOnMissingBean
	SlipcaseSerializerFamily slipcaseSerializerFamily(SlipcaseRedisProperties properties,
			ConfigurableListableBeanFactory beanFactory, ObjectProvider<CacheOperationSource> cacheOperationSources,
			@org.springframework.beans.factory.annotation.Qualifier("slipcaseBufferAllocator") ByteBufAllocator allocator,
			@org.springframework.beans.factory.annotation.Qualifier("slipcaseCompressors") CompressorLookup compressors,
			ObjectProvider<SlipcaseSerializerFamilyCustomizer> customizers) {
		ClassLoader classLoader = beanFactoryClassLoader(beanFactory);
		String defaultCompression = compressionOrNull(properties.getCompression().getAlgorithm());
		int minSize = toInt(properties.getCompression().getMinSize().toBytes(), "slipcase.redis.compression.min-size");
		int maxSize = toInt(properties.getCompression().getMaxDecompressedSize().toBytes(),
				"slipcase.redis.compression.max-decompressed-size");
		if (maxSize < 1) {
			throw new SlipcaseConfigurationException("slipcase.redis.compression.max-decompressed-size",
					"The largest decompressed value must be positive, was " + maxSize + " bytes",
					"Set slipcase.redis.compression.max-decompressed-size to a size such as 32MB.", null);
		}
		requireProtostuff(properties.getFormat(), "slipcase.redis.format", classLoader);
		SlipcaseSerializerFamily.Builder builder = SlipcaseSerializerFamily.builder()
			.allocator(allocator)
			.compressors(compressors)
			.maxDecompressedSize(maxSize)
			.defaultChoice(new Choice(properties.getFormat(), defaultCompression, minSize));
		properties.getTypes().forEach((id, type) -> {
			String property = "slipcase.redis.types." + id;
			if (type.getType() == null) {
				throw new SlipcaseConfigurationException(property + ".type", "Value type '" + id + "' names no class",
						"Set " + property + ".type to the fully qualified name of the class.", null);
			}
			allow(builder, id, type.getType(), property);
			if (type.getFormat() != null || type.getCompression() != null) {
				FormatKind format = (type.getFormat() != null) ? type.getFormat() : properties.getFormat();
				requireProtostuff(format, property + ".format", classLoader);
				String compression = (type.getCompression() != null) ? compressionOrNull(type.getCompression())
						: defaultCompression;
				builder.route(type.getType(), new Choice(format, compression, minSize));
			}
		});
		ValueTypeScanner scanner = new ValueTypeScanner(classLoader);
		Map<String, Class<?>> scanned = new LinkedHashMap<>();
		if (!properties.getPackages().isEmpty()) {
			scanned.putAll(scanner.scan(properties.getPackages(), false, "slipcase.redis.packages"));
		}
		else if (AutoConfigurationPackages.has(beanFactory)) {
			scanned.putAll(scanner.scan(AutoConfigurationPackages.get(beanFactory), true, "slipcase.redis.packages"));
		}
		scanned.forEach((id, type) -> {
			if (!builder.isAllowed(id) && !properties.getTypes().values().stream().anyMatch((t) -> t.getType() == type)) {
				allow(builder, id, type, "slipcase.redis.packages");
			}
		});
		// The application's own types its cached methods return, so that slipcaseRedisTemplate
		// stores them too with nothing configured.
		CachedMethods.find(beanFactory, cacheOperationSources.getIfUnique(AnnotationCacheOperationSource::new))
			.values()
			.forEach((methods) -> methods.forEach((method) -> CachedMethods.applicationClasses(method.valueType())
				.forEach((type) -> {
					String id = TypeIds.of(TypeFactory.createDefaultInstance().constructType(type));
					if (!builder.isAllowed(id) && !builder.isAllowedType(type)) {
						builder.allow(id, type);
					}
				})));
		Choice jdk = new Choice(FormatKind.JSON, defaultCompression, minSize);
		builtInTypes().forEach((id, type) -> {
			if (!builder.isAllowed(id)) {
				builder.allow(id, type).route(type, jdk);
			}
		});
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		try {
			return builder.build();
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException("slipcase.redis.types", ex.getMessage(),
					"Choose a format and compressor every listed type supports (slipcase.redis.format, "
							+ "slipcase.redis.types.<id>.format/compression, or the type's @RedisFormat).",
					ex);
		}
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
			ObjectProvider<SlipcaseSerializerFamily> family, ObjectProvider<SlipcaseRedisTemplateCustomizer> customizers) {
		return new BootRedisTemplatePostProcessor(family, customizers);
	}

	private static void allow(SlipcaseSerializerFamily.Builder builder, String id, Class<?> type, String property) {
		try {
			builder.allow(id, type);
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException(property, ex.getMessage(),
					"Give every value type a distinct id of 1 to 64 letters, digits or '_.:-'.", ex);
		}
	}

	private static Map<String, Class<?>> builtInTypes() {
		Map<String, Class<?>> types = new LinkedHashMap<>();
		types.put("java.string", String.class);
		types.put("java.long", Long.class);
		types.put("java.integer", Integer.class);
		types.put("java.double", Double.class);
		types.put("java.boolean", Boolean.class);
		types.put("java.decimal", BigDecimal.class);
		types.put("java.instant", Instant.class);
		types.put("java.local-date", LocalDate.class);
		return types;
	}

	static @Nullable String compressionOrNull(@Nullable String name) {
		if (name == null) {
			return null;
		}
		String trimmed = name.trim().toLowerCase(Locale.ROOT);
		return (trimmed.isEmpty() || NONE.equals(trimmed)) ? null : trimmed;
	}

	private static void requireCompressor(CompressorLookup lookup, @Nullable String name, String property) {
		String compression = compressionOrNull(name);
		if (compression == null || lookup.byName(compression) != null) {
			return;
		}
		if (!List.of(Lz4Compressor.NAME, ZstdCompressor.NAME, GzipCompressor.NAME).contains(compression)) {
			throw new SlipcaseConfigurationException(property, "Unknown compression algorithm '" + name + "'",
					"Set " + property + " to one of: none, lz4, zstd, gzip.", null);
		}
		throw missingLibrary(property, compression);
	}

	private static SlipcaseConfigurationException missingLibrary(String property, String compression) {
		String dependency = ZstdCompressor.NAME.equals(compression) ? "com.github.luben:zstd-jni" : "at.yawk.lz4:lz4-java";
		return new SlipcaseConfigurationException(property,
				"The " + compression + " compressor is configured but " + dependency + " is not on the classpath",
				"Add the " + dependency + " dependency (the Slipcase starter brings it), or choose another algorithm.",
				null);
	}

	private static void requireProtostuff(FormatKind format, String property, ClassLoader classLoader) {
		if (format == FormatKind.PROTOSTUFF && !ClassUtils.isPresent(PROTOSTUFF_CLASS, classLoader)) {
			throw new SlipcaseConfigurationException(property,
					"The protostuff format is configured but io.protostuff:protostuff-runtime is not on the classpath",
					"Add the io.protostuff:protostuff-runtime and protostuff-core dependencies (the Slipcase starter "
							+ "brings them), or set " + property + " to json.",
					null);
		}
	}

	static @Nullable Integer levelFor(SlipcaseRedisProperties properties, String algorithm) {
		return algorithm.equals(compressionOrNull(properties.getCompression().getAlgorithm()))
				? properties.getCompression().getLevel() : null;
	}

	static <C extends Compressor> C withLevel(java.util.function.Supplier<C> factory, int level) {
		try {
			return factory.get();
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException("slipcase.redis.compression.level",
					"Compression level " + level + " is out of range: " + ex.getMessage(),
					"Set slipcase.redis.compression.level within the range of slipcase.redis.compression.algorithm, "
							+ "or remove it to use the algorithm's default.",
					ex);
		}
	}

	private static int toInt(long bytes, String property) {
		if (bytes < 0 || bytes > Integer.MAX_VALUE) {
			throw new SlipcaseConfigurationException(property, "Size " + bytes + " bytes is out of range",
					"Set " + property + " between 0 and 2GB.", null);
		}
		return (int) bytes;
	}

	private static ClassLoader beanFactoryClassLoader(BeanFactory beanFactory) {
		if (beanFactory instanceof org.springframework.beans.factory.config.ConfigurableBeanFactory configurable
				&& configurable.getBeanClassLoader() != null) {
			return configurable.getBeanClassLoader();
		}
		return ClassUtils.getDefaultClassLoader();
	}

	/** LZ4, when lz4-java is on the classpath. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = LZ4_CLASS)
	static class Lz4Configuration {

		@Bean
		@ConditionalOnMissingBean(name = "slipcaseLz4Compressor")
		Compressor slipcaseLz4Compressor(SlipcaseRedisProperties properties) {
			Integer level = levelFor(properties, Lz4Compressor.NAME);
			return (level != null) ? withLevel(() -> Lz4Compressor.highCompression(level), level) : Lz4Compressor.create();
		}

	}

	/** Zstd, with its level and dictionaries, when zstd-jni is on the classpath. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = ZSTD_CLASS)
	static class ZstdConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "slipcaseZstdCompressor")
		Compressor slipcaseZstdCompressor(SlipcaseRedisProperties properties) {
			Integer level = levelFor(properties, ZstdCompressor.NAME);
			ZstdCompressor compressor = (level != null) ? withLevel(() -> ZstdCompressor.create(level), level)
					: ZstdCompressor.create();
			List<ZstdDictionary> dictionaries = new ArrayList<>();
			List<Resource> locations = properties.getCompression().getZstdDictionaries();
			for (int i = 0; i < locations.size(); i++) {
				dictionaries.add(load(locations.get(i), "slipcase.redis.compression.zstd-dictionaries[" + i + "]"));
			}
			if (dictionaries.isEmpty()) {
				return compressor;
			}
			try {
				return compressor.withDictionaries(ZstdDictionaries.of(dictionaries)).withDictionary(dictionaries.get(0));
			}
			catch (IllegalArgumentException ex) {
				throw new SlipcaseConfigurationException("slipcase.redis.compression.zstd-dictionaries",
						ex.getMessage(), "List each dictionary once, and give different dictionaries different ids.",
						ex);
			}
		}

		private static ZstdDictionary load(Resource resource, String property) {
			if (!resource.exists()) {
				throw new SlipcaseConfigurationException(property, "Zstd dictionary " + resource + " does not exist",
						"Point " + property + " at an existing dictionary (classpath:... or file:...), "
								+ "or remove it; train one with ZstdDictionary.train(...).",
						null);
			}
			try (InputStream stream = resource.getInputStream()) {
				return ZstdDictionary.of(stream.readNBytes(16 * 1024 * 1024 + 1));
			}
			catch (IOException ex) {
				throw new SlipcaseConfigurationException(property,
						"Zstd dictionary " + resource + " cannot be read: " + ex.getMessage(),
						"Make " + property + " readable by the application.", ex);
			}
			catch (IllegalArgumentException ex) {
				throw new SlipcaseConfigurationException(property,
						resource + " is not a usable zstd dictionary: " + ex.getMessage(),
						"Point " + property + " at a dictionary written by ZstdDictionary.writeTo or zstd --train.", ex);
			}
		}

	}

	/** Spring Cache values through Slipcase's serializers, when spring-boot-cache is present. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RedisCacheManagerBuilderCustomizer.class)
	@ConditionalOnBooleanProperty(name = "slipcase.redis.cache.enabled", matchIfMissing = true)
	static class CacheConfiguration {

		@Bean
		@ConditionalOnMissingBean({ RedisCacheConfiguration.class, SlipcaseCacheManagerBuilderCustomizer.class })
		@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
		SlipcaseCacheManagerBuilderCustomizer slipcaseCacheManagerBuilderCustomizer(SlipcaseRedisProperties properties,
				SlipcaseSerializerFamily family, ObjectProvider<SlipcaseCacheConfigurationCustomizer> customizers,
				ConfigurableListableBeanFactory beanFactory, RedisConnectionFactory connectionFactory,
				ObjectProvider<CacheOperationSource> cacheOperationSources) {
			ClassLoader classLoader = beanFactoryClassLoader(beanFactory);
			properties.getCache().getCaches().forEach((name, spec) -> {
				if (spec.getFormat() != null) {
					requireProtostuff(spec.getFormat(), "slipcase.redis.cache.caches." + name + ".format", classLoader);
				}
			});
			CacheOperationSource operations = cacheOperationSources.getIfUnique(AnnotationCacheOperationSource::new);
			CacheValueSerializers serializers = new CacheValueSerializers(family, properties.getCache(),
					CachedMethods.find(beanFactory, operations));
			return new SlipcaseCacheManagerBuilderCustomizer(serializers, properties.getCache(),
					customizers.orderedStream().toList(), connectionFactory);
		}

	}

}
