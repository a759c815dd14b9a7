package dev.slipcase.redis.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.compression.GzipCompressor;
import dev.slipcase.redis.serializer.compression.Lz4Compressor;
import dev.slipcase.redis.serializer.compression.ZstdCompressor;
import dev.slipcase.redis.serializer.compression.ZstdDictionaries;
import dev.slipcase.redis.serializer.compression.ZstdDictionary;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;

import static dev.slipcase.redis.autoconfigure.Settings.compressionOrNull;

/**
 * The compressors values are written and read with: gzip always, LZ4 and Zstd (with its
 * dictionaries) when their libraries are present, each at {@code slipcase.redis.compression.level}
 * when it is the chosen algorithm, and the {@code slipcaseCompressors} lookup that checks every
 * compression setting names one of them. Imported by {@link SlipcaseRedisAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
final class SlipcaseCompressionConfiguration {

	static final String ZSTD_CLASS = "com.github.luben.zstd.Zstd";

	static final String LZ4_CLASS = "net.jpountz.lz4.LZ4Factory";

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseGzipCompressor")
	Compressor slipcaseGzipCompressor(SlipcaseRedisProperties properties) {
		return compressor(properties, GzipCompressor.NAME, GzipCompressor::create, GzipCompressor::create);
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

	/**
	 * The {@code algorithm} compressor: at {@code slipcase.redis.compression.level} when it is
	 * the chosen algorithm and a level is set, else at the algorithm's default.
	 */
	static <C extends Compressor> C compressor(SlipcaseRedisProperties properties, String algorithm,
			IntFunction<C> atLevel, Supplier<C> atDefault) {
		Integer level = algorithm.equals(compressionOrNull(properties.getCompression().getAlgorithm()))
				? properties.getCompression().getLevel() : null;
		if (level == null) {
			return atDefault.get();
		}
		try {
			return atLevel.apply(level);
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException("slipcase.redis.compression.level",
					"Compression level " + level + " is out of range: " + ex.getMessage(),
					"Set slipcase.redis.compression.level within the range of slipcase.redis.compression.algorithm, "
							+ "or remove it to use the algorithm's default.",
					ex);
		}
	}

	/** LZ4, when lz4-java is on the classpath. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = LZ4_CLASS)
	static final class Lz4Configuration {

		@Bean
		@ConditionalOnMissingBean(name = "slipcaseLz4Compressor")
		Compressor slipcaseLz4Compressor(SlipcaseRedisProperties properties) {
			return compressor(properties, Lz4Compressor.NAME, Lz4Compressor::highCompression, Lz4Compressor::create);
		}

	}

	/** Zstd, with its level and dictionaries, when zstd-jni is on the classpath. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = ZSTD_CLASS)
	static final class ZstdConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "slipcaseZstdCompressor")
		Compressor slipcaseZstdCompressor(SlipcaseRedisProperties properties) {
			ZstdCompressor compressor = compressor(properties, ZstdCompressor.NAME, ZstdCompressor::create,
					ZstdCompressor::create);
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

}
