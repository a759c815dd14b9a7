package dev.slipcase.redis.autoconfigure;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.autoconfigure.annotated.Catalogue;
import dev.slipcase.redis.autoconfigure.annotated.Plain;
import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.buffer.AllocatorType;
import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter.Choice;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.compression.GzipCompressor;
import dev.slipcase.redis.serializer.compression.ZstdCompressor;
import dev.slipcase.redis.serializer.compression.ZstdDictionary;
import dev.slipcase.redis.springdata.SlipcaseRedisTemplate;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SlipcaseRedisAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseRedisAutoConfiguration.class));

	private static final String ORDER = "slipcase.redis.types.order.type=" + Order.class.getName();

	// defaults

	@Test
	void defaultsGiveTheAdaptiveDirectAllocator() {
		this.runner.run((context) -> assertThat(context.getBean("slipcaseBufferAllocator"))
			.isSameAs(BufferAllocators.allocator(AllocatorType.ADAPTIVE, true)));
	}

	@Test
	void defaultsRegisterEveryAvailableCompressorForReading() {
		this.runner.run((context) -> assertThat(context.getBean("slipcaseCompressors", CompressorLookup.class).names())
			.containsExactlyInAnyOrder("lz4", "zstd", "gzip"));
	}

	@Test
	void defaultsWriteUncompressedJson() {
		this.runner.withPropertyValues(ORDER).run((context) -> {
			SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
			assertThat(family.choiceFor(Order.class)).isEqualTo(new Choice(FormatKind.JSON, null, 128));
			byte[] bytes = family.valueSerializer().serialize(Order.sample(1, null));
			assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("[\"order\",{\"id\":1");
			assertThat(family.valueSerializer().deserialize(bytes)).isEqualTo(Order.sample(1, null));
		});
	}

	@Test
	void defaultsAllowJdkValueTypes() {
		this.runner.run((context) -> {
			SlipcaseRedisSerializer<Object> values = context.getBean(SlipcaseSerializerFamily.class).valueSerializer();
			assertThat(values.deserialize(values.serialize("text"))).isEqualTo("text");
			assertThat(values.deserialize(values.serialize(42L))).isEqualTo(42L);
		});
	}

	@Test
	void defaultsGiveASlipcaseRedisTemplate() {
		this.runner.run((context) -> {
			RedisTemplate<?, ?> template = context.getBean("slipcaseRedisTemplate", RedisTemplate.class);
			assertThat(template.getValueSerializer())
				.isSameAs(context.getBean(SlipcaseSerializerFamily.class).templateValueSerializer());
			assertThat(template.getKeySerializer()).isInstanceOf(SlipcaseRedisSerializer.class);
		});
	}

	@Test
	void bootsRedisTemplateIsLeftAsBootMadeItByDefault() {
		this.runner.run((context) -> {
			RedisTemplate<?, ?> template = context.getBean("redisTemplate", RedisTemplate.class);
			assertThat(template).isNotInstanceOf(SlipcaseRedisTemplate.class);
			assertThat(template.getKeySerializer()).isInstanceOf(JdkSerializationRedisSerializer.class);
			assertThat(template.getValueSerializer()).isInstanceOf(JdkSerializationRedisSerializer.class);
		});
	}

	@Test
	void bootsRedisTemplateWritesWithSlipcaseSerializersWhenEnabled() {
		this.runner.withPropertyValues("slipcase.redis.redis-template.enabled=true").run((context) -> {
			RedisTemplate<?, ?> template = context.getBean("redisTemplate", RedisTemplate.class);
			assertThat(template).isInstanceOf(SlipcaseRedisTemplate.class);
			assertThat(template.getConnectionFactory()).isSameAs(context.getBean(RedisConnectionFactory.class));
			assertThat(template.getValueSerializer())
				.isSameAs(context.getBean(SlipcaseSerializerFamily.class).templateValueSerializer());
			assertThat(template.getHashValueSerializer()).isSameAs(template.getValueSerializer());
			assertThat(template.getKeySerializer()).isInstanceOf(SlipcaseRedisSerializer.class);
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void bootsRedisTemplateWritingJdkKeepsItsJdkKeysAndWritesWhatBootsTemplateWrote() {
		JdkSerializationRedisSerializer boots = new JdkSerializationRedisSerializer();
		Order order = Order.sample(1, null);
		this.runner
			.withPropertyValues("slipcase.redis.redis-template.enabled=true", "slipcase.redis.redis-template.jdk-keys=true",
					"slipcase.redis.redis-template.switch-over=write-jdk",
					"slipcase.redis.types.order.type=" + Order.class.getName())
			.run((context) -> {
				RedisTemplate<Object, Object> template = context.getBean("redisTemplate", RedisTemplate.class);
				RedisSerializer<Object> keys = (RedisSerializer<Object>) template.getKeySerializer();
				RedisSerializer<Object> values = (RedisSerializer<Object>) template.getValueSerializer();
				assertThat(keys.serialize("note:1")).isEqualTo(boots.serialize("note:1"));
				assertThat(template.getHashKeySerializer()).isSameAs(keys);
				assertThat(values.serialize(order)).isEqualTo(boots.serialize(order));
				assertThat(values.deserialize(boots.serialize(order))).isEqualTo(order);
				assertThat(((RedisSerializer<Object>) template.getHashValueSerializer()).serialize(order))
					.isEqualTo(boots.serialize(order));
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void bootsRedisTemplateReadingJdkWritesSlipcasesFormatAndStillReadsJdkValues() {
		JdkSerializationRedisSerializer boots = new JdkSerializationRedisSerializer();
		this.runner
			.withPropertyValues("slipcase.redis.redis-template.enabled=true", "slipcase.redis.redis-template.jdk-keys=true",
					"slipcase.redis.redis-template.switch-over=read-jdk")
			.run((context) -> {
				RedisTemplate<Object, Object> template = context.getBean("redisTemplate", RedisTemplate.class);
				RedisSerializer<Object> values = (RedisSerializer<Object>) template.getValueSerializer();
				assertThat(new String(values.serialize("hello"), StandardCharsets.UTF_8)).isEqualTo("[\"java.string\",\"hello\"]");
				assertThat(values.deserialize(boots.serialize("hello"))).isEqualTo("hello");
				assertThat(((RedisSerializer<Object>) template.getKeySerializer()).serialize("note:1"))
					.isEqualTo(boots.serialize("note:1"));
			});
	}

	@Test
	void bootsRedisTemplateSwitchingOverWithUtf8KeysFailsStartupNamingTheProperty() {
		this.runner
			.withPropertyValues("slipcase.redis.redis-template.enabled=true",
					"slipcase.redis.redis-template.switch-over=write-jdk")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(SlipcaseConfigurationException.class)
				.hasMessageContaining("slipcase.redis.redis-template.switch-over is write-jdk"));
	}

	@Test
	void stringRedisTemplateIsLeftAsBootMadeIt() {
		this.runner.run((context) -> assertThat(context.getBean(StringRedisTemplate.class).getValueSerializer())
			.isInstanceOf(StringRedisSerializer.class));
	}

	@Test
	void bootsRedisTemplateIsLeftAloneWhenDisabled() {
		this.runner.withPropertyValues("slipcase.redis.redis-template.enabled=false")
			.run((context) -> assertThat(context.getBean("redisTemplate", RedisTemplate.class).getValueSerializer())
				.isInstanceOf(JdkSerializationRedisSerializer.class));
	}

	// property groups

	@Test
	void bufferPropertiesChooseTheAllocator() {
		this.runner.withPropertyValues("slipcase.redis.buffer.allocator=pooled", "slipcase.redis.buffer.direct=false")
			.run((context) -> {
				assertThat(context.getBean("slipcaseBufferAllocator"))
					.isSameAs(BufferAllocators.allocator(AllocatorType.POOLED, false));
				assertThat(context.getBean(SlipcaseSerializerFamily.class).allocator())
					.isSameAs(BufferAllocators.allocator(AllocatorType.POOLED, false));
			});
	}

	@Test
	void compressionPropertiesChooseTheDefaultCompression() {
		this.runner
			.withPropertyValues(ORDER, "slipcase.redis.compression.algorithm=zstd", "slipcase.redis.compression.level=7",
					"slipcase.redis.compression.min-size=16B")
			.run((context) -> {
				SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
				assertThat(family.choiceFor(Order.class)).isEqualTo(new Choice(FormatKind.JSON, "zstd", 16));
				assertThat(((ZstdCompressor) context.getBean("slipcaseZstdCompressor")).level()).isEqualTo(7);
				byte[] bytes = family.valueSerializer().serialize(Order.sample(2, "x".repeat(500)));
				assertThat(bytes.length).isLessThan(300);
				assertThat(family.valueSerializer().deserialize(bytes)).isEqualTo(Order.sample(2, "x".repeat(500)));
			});
	}

	@Test
	void compressionLevelAppliesToGzip() {
		this.runner.withPropertyValues("slipcase.redis.compression.algorithm=gzip", "slipcase.redis.compression.level=9")
			.run((context) -> assertThat(((GzipCompressor) context.getBean("slipcaseGzipCompressor")).level())
				.isEqualTo(9));
	}

	@Test
	void compressionLevelAppliesToLz4AsHighCompression() {
		this.runner.withPropertyValues("slipcase.redis.compression.algorithm=lz4", "slipcase.redis.compression.level=9")
			.run((context) -> assertThat(
					((dev.slipcase.redis.serializer.compression.Lz4Compressor) context.getBean("slipcaseLz4Compressor"))
						.level())
				.isEqualTo(9));
	}

	@Test
	void compressionLevelAppliesOnlyToTheChosenAlgorithm() {
		this.runner.withPropertyValues("slipcase.redis.compression.algorithm=zstd", "slipcase.redis.compression.level=12")
			.run((context) -> assertThat(((GzipCompressor) context.getBean("slipcaseGzipCompressor")).level())
				.isEqualTo(GzipCompressor.DEFAULT_LEVEL));
	}

	@Test
	void missingClasspathZstdDictionaryFailsStartupWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.compression.zstd-dictionaries=classpath:slipcase/none.zdict")
			.run((context) -> assertThat(analyze(context).getDescription()).contains("class path resource")
				.contains("none.zdict")
				.contains("does not exist"));
	}

	@Test
	void aFileThatIsNotADictionaryFailsStartupWithAnAnalysis(@TempDir Path dir) throws Exception {
		Path file = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "not a dictionary");
		this.runner.withPropertyValues("slipcase.redis.compression.zstd-dictionaries=file:" + file)
			.run((context) -> assertThat(analyze(context).getDescription()).contains("not a usable zstd dictionary"));
	}

	@Test
	void anInvalidTypeIdFailsStartupWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.types[bad id].type=" + Order.class.getName())
			.run((context) -> assertThat(analyze(context).getDescription()).contains("bad id"));
	}

	@Test
	void maxDecompressedSizeCapsWhatIsRead() {
		String[] compressed = { ORDER, "slipcase.redis.compression.algorithm=lz4" };
		byte[][] written = new byte[1][];
		this.runner.withPropertyValues(compressed)
			.run((context) -> written[0] = context.getBean(SlipcaseSerializerFamily.class)
				.valueSerializer()
				.serialize(Order.sample(3, "y".repeat(10_000))));
		this.runner.withPropertyValues(ORDER, "slipcase.redis.compression.max-decompressed-size=1KB")
			.run((context) -> assertThatExceptionOfType(SerializationException.class).isThrownBy(
					() -> context.getBean(SlipcaseSerializerFamily.class).valueSerializer().deserialize(written[0])));
	}

	@Test
	void zstdDictionaryIsLoadedFromAFile(@TempDir Path dir) throws Exception {
		ZstdDictionary dictionary = trainedDictionary(7);
		Path file = dir.resolve("orders.zdict");
		dictionary.writeTo(file);
		this.runner
			.withPropertyValues("slipcase.redis.compression.algorithm=zstd",
					"slipcase.redis.compression.zstd-dictionaries=file:" + file)
			.run((context) -> {
				ZstdCompressor zstd = (ZstdCompressor) context.getBean("slipcaseZstdCompressor");
				assertThat(zstd.dictionary()).isEqualTo(dictionary);
				assertThat(zstd.dictionaries().ids()).containsExactly(7L);
			});
	}

	@Test
	void missingZstdDictionaryFailsStartupWithAnAnalysis(@TempDir Path dir) {
		this.runner
			.withPropertyValues("slipcase.redis.compression.zstd-dictionaries=file:" + dir.resolve("missing.zdict"))
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription())
					.contains("slipcase.redis.compression.zstd-dictionaries[0]")
					.contains("does not exist");
				assertThat(analysis.getAction()).contains("existing dictionary");
			});
	}

	@Test
	void compressionLevelOutOfRangeFailsStartupWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.compression.algorithm=gzip", "slipcase.redis.compression.level=12")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).contains("slipcase.redis.compression.level").contains("12");
				assertThat(analysis.getAction()).contains("slipcase.redis.compression.level");
			});
	}

	@Test
	void unknownCompressionAlgorithmFailsStartupWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.compression.algorithm=brotli").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).contains("slipcase.redis.compression.algorithm").contains("brotli");
			assertThat(analysis.getAction()).contains("none, lz4, zstd, gzip");
		});
	}

	@Test
	void unknownFormatFailsStartup() {
		this.runner.withPropertyValues("slipcase.redis.format=avro").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = org.springframework.core.io.support.SpringFactoriesLoader.forDefaultResourceLocation()
				.load(org.springframework.boot.diagnostics.FailureAnalyzer.class,
						org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler
							.logging(org.apache.commons.logging.LogFactory.getLog(getClass())))
				.stream()
				.map((analyzer) -> analyzer.analyze(context.getStartupFailure()))
				.filter(java.util.Objects::nonNull)
				.findFirst()
				.orElseThrow();
			assertThat(analysis.getDescription()).contains("slipcase.redis.format").contains("avro");
			assertThat(analysis.getAction()).contains("JSON").contains("PROTOSTUFF");
		});
	}

	@Test
	void typeWithoutAClassFailsStartupWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.types.order.format=protostuff")
			.run((context) -> assertThat(analyze(context).getDescription()).contains("slipcase.redis.types.order.type"));
	}

	@Test
	void typesPropertyRoutesATypesFormatAndCompression() {
		this.runner
			.withPropertyValues(ORDER, "slipcase.redis.types.order.format=protostuff",
					"slipcase.redis.types.order.compression=lz4")
			.run((context) -> {
				SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
				assertThat(family.choiceFor(Order.class)).isEqualTo(new Choice(FormatKind.PROTOSTUFF, "lz4", 128));
				byte[] bytes = family.valueSerializer().serialize(Order.sample(4, null));
				assertThat(bytes[0]).isNotEqualTo((byte) '[');
				assertThat(family.valueSerializer().deserialize(bytes)).isEqualTo(Order.sample(4, null));
			});
	}

	@Test
	void defaultFormatAppliesToTypesThatDoNotChoose() {
		this.runner.withPropertyValues(ORDER, "slipcase.redis.format=protostuff").run((context) -> {
			SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
			assertThat(family.choiceFor(Order.class).kind()).isEqualTo(FormatKind.PROTOSTUFF);
			assertThat(family.valueSerializer().deserialize(family.valueSerializer().serialize(Order.sample(5, null))))
				.isEqualTo(Order.sample(5, null));
		});
	}

	@Test
	void typesPropertyRoutesATypeToFory() {
		this.runner.withPropertyValues(ORDER, "slipcase.redis.types.order.format=fory").run((context) -> {
			SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
			assertThat(family.choiceFor(Order.class).kind()).isEqualTo(FormatKind.FORY);
			byte[] bytes = family.valueSerializer().serialize(Order.sample(6, null));
			assertThat(bytes[0] & 0xFF).isEqualTo(FormatHeader.MARKER);
			assertThat(bytes[1]).isEqualTo((byte) FormatHeader.FORY);
			assertThat(family.valueSerializer().deserialize(bytes)).isEqualTo(Order.sample(6, null));
			assertThat(family.serializer(Order.class).deserialize(family.serializer(Order.class)
				.serialize(Order.sample(7, null)))).isEqualTo(Order.sample(7, null));
		});
	}

	@Test
	void packagesPropertyAllowsEveryClassInThem() {
		this.runner.withPropertyValues("slipcase.redis.packages=dev.slipcase.redis.autoconfigure.fixtures")
			.run((context) -> assertThat(context.getBean(SlipcaseSerializerFamily.class).allowlist().types())
				.containsKeys("Order", "Order.Line", "Page"));
	}

	@Test
	void annotatedTypesInTheApplicationsPackagesAreAllowedAndRouted() {
		this.runner.withUserConfiguration(AnnotatedPackage.class).run((context) -> {
			SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
			assertThat(family.allowlist().types()).containsKey("Catalogue").doesNotContainKey("Plain");
			assertThat(family.choiceFor(Catalogue.class)).isEqualTo(new Choice(FormatKind.PROTOSTUFF, "zstd", 16));
			Catalogue catalogue = new Catalogue("winter", List.of("a".repeat(40), "b".repeat(40)));
			assertThat(family.valueSerializer().deserialize(family.valueSerializer().serialize(catalogue)))
				.isEqualTo(catalogue);
		});
	}

	@Test
	void aTypeOutsideTheAllowlistIsRefusedOnWrite() {
		this.runner.run((context) -> assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> context.getBean(SlipcaseSerializerFamily.class).valueSerializer().serialize(new Plain("p")))
			.withMessageContaining("allowlist"));
	}

	// back-off

	@Test
	void backsOffFromAUserAllocator() {
		this.runner.withUserConfiguration(UserAllocator.class)
			.run((context) -> assertThat(context.getBean(SlipcaseSerializerFamily.class).allocator())
				.isSameAs(UserAllocator.ALLOCATOR));
	}

	@Test
	void backsOffFromAUserCompressor() {
		this.runner.withUserConfiguration(UserZstd.class)
			.withPropertyValues("slipcase.redis.compression.algorithm=zstd")
			.run((context) -> assertThat(context.getBean("slipcaseCompressors", CompressorLookup.class).byName("zstd"))
				.isSameAs(context.getBean("slipcaseZstdCompressor")));
	}

	@Test
	void backsOffFromUserCompressors() {
		this.runner.withUserConfiguration(UserCompressors.class)
			.run((context) -> assertThat(context.getBean(SlipcaseSerializerFamily.class).compressors().names())
				.containsExactly("gzip"));
	}

	@Test
	void backsOffFromAUserFamily() {
		this.runner.withUserConfiguration(UserFamily.class)
			.run((context) -> assertThat(context.getBean(SlipcaseSerializerFamily.class))
				.isSameAs(context.getBean(UserFamily.class).family));
	}

	@Test
	void backsOffFromAUserSlipcaseRedisTemplate() {
		this.runner.withUserConfiguration(UserTemplates.class)
			.run((context) -> assertThat(context.getBean("slipcaseRedisTemplate"))
				.isSameAs(context.getBean(UserTemplates.class).slipcase));
	}

	@Test
	void leavesAUserRedisTemplateAlone() {
		this.runner.withUserConfiguration(UserTemplates.class)
			.withPropertyValues("slipcase.redis.redis-template.enabled=true")
			.run((context) -> {
			RedisTemplate<?, ?> template = context.getBean("redisTemplate", RedisTemplate.class);
			assertThat(template).isSameAs(context.getBean(UserTemplates.class).boot);
			assertThat(template.getValueSerializer()).isInstanceOf(JdkSerializationRedisSerializer.class);
		});
	}

	@Test
	void bootStillDefinesItsRedisTemplateTheWayThePostProcessorRecognisesIt() throws NoSuchMethodException {
		// BootRedisTemplatePostProcessor replaces only the bean named redisTemplate whose factory
		// method is this one; if Boot renames or moves it, this fails before users notice.
		Method factory = DataRedisAutoConfiguration.class.getDeclaredMethod(BootRedisTemplatePostProcessor.BEAN_NAME,
				RedisConnectionFactory.class);
		assertThat(factory.getReturnType()).isEqualTo(RedisTemplate.class);
		assertThat(factory.isAnnotationPresent(Bean.class)).isTrue();
		assertThat(factory.getAnnotation(ConditionalOnMissingBean.class).name())
			.containsExactly(BootRedisTemplatePostProcessor.BEAN_NAME);
	}

	@Test
	void noTemplateWithoutAConnectionFactory() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SlipcaseRedisAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(SlipcaseSerializerFamily.class);
				assertThat(context).doesNotHaveBean(RedisConnectionFactory.class).doesNotHaveBean("slipcaseRedisTemplate");
			});
	}

	// customizers

	@Test
	void familyCustomizersRunInOrder() {
		this.runner
			.withBean("first", SlipcaseSerializerFamilyCustomizer.class,
					() -> (builder) -> builder.allow("order", Order.class))
			.withBean("second", SlipcaseSerializerFamilyCustomizer.class,
					() -> (builder) -> builder.route(Order.class, new Choice(FormatKind.PROTOSTUFF, null, 0)))
			.run((context) -> {
				SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
				assertThat(family.allowlist().types()).containsKey("order");
				assertThat(family.choiceFor(Order.class).kind()).isEqualTo(FormatKind.PROTOSTUFF);
			});
	}

	@Test
	void templateCustomizersRunForBothTemplates() {
		AtomicInteger calls = new AtomicInteger();
		this.runner.withBean(SlipcaseRedisTemplateCustomizer.class, () -> (template) -> calls.incrementAndGet())
			.withPropertyValues("slipcase.redis.redis-template.enabled=true")
			.run((context) -> {
				context.getBean("redisTemplate");
				context.getBean("slipcaseRedisTemplate");
				assertThat(calls).hasValue(2);
			});
	}

	// optional libraries

	@Test
	void withoutZstdThereIsNoZstdCompressor() {
		this.runner.withClassLoader(new FilteredClassLoader("com.github.luben.zstd"))
			.run((context) -> assertThat(context.getBean("slipcaseCompressors", CompressorLookup.class).names())
				.containsExactlyInAnyOrder("lz4", "gzip"));
	}

	@Test
	void zstdWithoutItsLibraryFailsStartupNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("com.github.luben.zstd"))
			.withPropertyValues("slipcase.redis.compression.algorithm=zstd")
			.run((context) -> assertThat(analyze(context).getAction()).contains("com.github.luben:zstd-jni"));
	}

	@Test
	void withoutLz4ThereIsNoLz4Compressor() {
		this.runner.withClassLoader(new FilteredClassLoader("net.jpountz"))
			.run((context) -> assertThat(context.getBean("slipcaseCompressors", CompressorLookup.class).names())
				.containsExactlyInAnyOrder("zstd", "gzip"));
	}

	@Test
	void lz4WithoutItsLibraryFailsStartupNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("net.jpountz"))
			.withPropertyValues("slipcase.redis.compression.algorithm=lz4")
			.run((context) -> assertThat(analyze(context).getAction()).contains("at.yawk.lz4:lz4-java"));
	}

	@Test
	void protostuffWithoutItsLibraryFailsStartupNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("io.protostuff"))
			.withPropertyValues("slipcase.redis.format=protostuff")
			.run((context) -> assertThat(analyze(context).getAction()).contains("protostuff-runtime"));
	}

	@Test
	void foryWithoutItsLibraryFailsStartupNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("org.apache.fory"))
			.withPropertyValues("slipcase.redis.format=fory")
			.run((context) -> assertThat(analyze(context).getAction()).contains("org.apache.fory:fory-core"));
	}

	@Test
	void withoutProtostuffJsonStillWorks() {
		this.runner.withClassLoader(new FilteredClassLoader("io.protostuff"))
			.run((context) -> assertThat(context).hasSingleBean(SlipcaseSerializerFamily.class));
	}

	static FailureAnalysis analyze(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("analysis of %s", failure).isNotNull();
		return analysis;
	}

	static ZstdDictionary trainedDictionary(long id) {
		List<byte[]> samples = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			samples.add(("{\"id\":" + i + ",\"customer\":\"customer-" + (i % 97) + "\",\"status\":\""
					+ ((i % 3 == 0) ? "PAID" : "OPEN") + "\",\"total\":" + (i * 7 % 1000) + ".99}")
				.getBytes(StandardCharsets.UTF_8));
		}
		return ZstdDictionary.train(samples, 1024, id);
	}

	@Configuration(proxyBeanMethods = false)
	@AutoConfigurationPackage(basePackageClasses = Catalogue.class)
	static class AnnotatedPackage {

	}

	@Configuration(proxyBeanMethods = false)
	static class UserAllocator {

		static final ByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(false);

		@Bean
		ByteBufAllocator slipcaseBufferAllocator() {
			return ALLOCATOR;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserZstd {

		@Bean
		Compressor slipcaseZstdCompressor() {
			return ZstdCompressor.create(1);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserCompressors {

		@Bean
		CompressorLookup slipcaseCompressors() {
			return CompressorLookup.of(GzipCompressor.create());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserFamily {

		final SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder().allow("order", Order.class).build();

		@Bean
		SlipcaseSerializerFamily mySerializers() {
			return this.family;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTemplates {

		final RedisTemplate<Object, Object> boot = new RedisTemplate<>();

		final RedisTemplate<String, Object> slipcase = new RedisTemplate<>();

		@Bean
		RedisTemplate<Object, Object> redisTemplate(RedisConnectionFactory connectionFactory) {
			this.boot.setConnectionFactory(connectionFactory);
			return this.boot;
		}

		@Bean
		RedisTemplate<String, Object> slipcaseRedisTemplate(RedisConnectionFactory connectionFactory) {
			this.slipcase.setConnectionFactory(connectionFactory);
			return this.slipcase;
		}

	}

}
