package dev.slipcase.redis.autoconfigure;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter.Choice;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.TypeIds;
import dev.slipcase.redis.serializer.ValueTypeScanner;
import io.netty.buffer.ByteBufAllocator;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.cache.interceptor.CacheOperationSource;

import static dev.slipcase.redis.autoconfigure.Settings.compressionOrNull;

/**
 * Maps {@code slipcase.redis.*} onto a {@link SlipcaseSerializerFamily.Builder}: the default
 * format and compression, the configured value types and their routes, the types found in
 * {@code slipcase.redis.packages} (or the application's {@code @RedisFormat} types), the
 * application's own types its cached methods return, and the JDK's value types. Whatever the
 * builder refuses fails as a {@link SlipcaseConfigurationException} naming the property.
 */
final class SerializerFamilyFactory {

	private final SlipcaseRedisProperties properties;

	private final ConfigurableListableBeanFactory beanFactory;

	SerializerFamilyFactory(SlipcaseRedisProperties properties, ConfigurableListableBeanFactory beanFactory) {
		this.properties = properties;
		this.beanFactory = beanFactory;
	}

	/** A builder with everything the properties and the application's classes say. */
	SlipcaseSerializerFamily.Builder builder(ByteBufAllocator allocator, CompressorLookup compressors,
			CacheOperationSource cacheOperations) {
		ClassLoader classLoader = Settings.classLoader(this.beanFactory);
		SlipcaseRedisProperties.Compression compression = this.properties.getCompression();
		String defaultCompression = compressionOrNull(compression.getAlgorithm());
		int minSize = Settings.toInt(compression.getMinSize().toBytes(), "slipcase.redis.compression.min-size");
		Settings.requireFormatLibrary(this.properties.getFormat(), "slipcase.redis.format", classLoader);
		SlipcaseSerializerFamily.Builder builder = SlipcaseSerializerFamily.builder()
			.allocator(allocator)
			.compressors(compressors)
			.defaultChoice(new Choice(this.properties.getFormat(), defaultCompression, minSize));
		PropertyMapper map = PropertyMapper.get();
		map.from(compression::getMaxDecompressedSize)
			.as((size) -> Settings.toInt(size.toBytes(), "slipcase.redis.compression.max-decompressed-size"))
			.to((size) -> refused("slipcase.redis.compression.max-decompressed-size",
					"Set slipcase.redis.compression.max-decompressed-size to a size such as 32MB.",
					() -> builder.maxDecompressedSize(size)));
		this.properties.getTypes().forEach((id, type) -> {
			String property = "slipcase.redis.types." + id;
			if (type.getType() == null) {
				throw new SlipcaseConfigurationException(property + ".type", "Value type '" + id + "' names no class",
						"Set " + property + ".type to the fully qualified name of the class.", null);
			}
			refused(property, "Give every value type a distinct id of 1 to 64 letters, digits or '_.:-'.",
					() -> builder.allow(id, type.getType()));
			if (type.getFormat() != null || type.getCompression() != null) {
				FormatKind format = (type.getFormat() != null) ? type.getFormat() : this.properties.getFormat();
				Settings.requireFormatLibrary(format, property + ".format", classLoader);
				String chosen = (type.getCompression() != null) ? compressionOrNull(type.getCompression())
						: defaultCompression;
				builder.route(type.getType(), new Choice(format, chosen, minSize));
			}
		});
		scanned(classLoader).forEach(builder::allowIfAbsent);
		// The application's own types its cached methods return, so that slipcaseRedisTemplate
		// stores them too with nothing configured.
		CachedMethods.find(this.beanFactory, cacheOperations)
			.values()
			.forEach((methods) -> methods.forEach((method) -> CachedMethods.applicationClasses(method.valueType())
				.forEach((type) -> builder
					.allowIfAbsent(TypeIds.of(TypeFactory.createDefaultInstance().constructType(type)), type))));
		return builder.allowJdkValueTypes(new Choice(FormatKind.JSON, defaultCompression, minSize));
	}

	private Map<String, Class<?>> scanned(ClassLoader classLoader) {
		ValueTypeScanner scanner = new ValueTypeScanner(classLoader);
		List<String> packages = this.properties.getPackages();
		boolean annotatedOnly = packages.isEmpty();
		if (annotatedOnly) {
			if (!AutoConfigurationPackages.has(this.beanFactory)) {
				return Map.of();
			}
			packages = AutoConfigurationPackages.get(this.beanFactory);
		}
		List<String> scannedPackages = packages;
		return refused("slipcase.redis.packages",
				"Allow one of them under another id with slipcase.redis.types.<id>.type, or list only one of their packages.",
				() -> scanner.scan(scannedPackages, annotatedOnly));
	}

	/** {@code builder.build()}, or a failure naming the properties that choose formats. */
	static SlipcaseSerializerFamily build(SlipcaseSerializerFamily.Builder builder) {
		return refused("slipcase.redis.types",
				"Choose a format and compressor every listed type supports (slipcase.redis.format, "
						+ "slipcase.redis.types.<id>.format/compression, or the type's @RedisFormat).",
				builder::build);
	}

	private static <T> T refused(String property, String action, java.util.function.Supplier<T> step) {
		try {
			return step.get();
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException(property, ex.getMessage(), action, ex);
		}
	}

}
