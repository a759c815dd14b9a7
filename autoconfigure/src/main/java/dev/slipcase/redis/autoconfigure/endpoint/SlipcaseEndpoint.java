package dev.slipcase.redis.autoconfigure.endpoint;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.slipcase.redis.autoconfigure.SwitchOverSerializers;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.sharded.BucketMemoryReport;
import dev.slipcase.redis.sharded.ServerLimits;
import dev.slipcase.redis.sharded.ShardLayout;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.template.ValueTemplate;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The {@code slipcase} actuator endpoint. {@code GET /actuator/slipcase} shows the effective
 * configuration: every {@code slipcase.redis.*} property set in the {@code Environment} (from any
 * source, in canonical form, with the value that wins), the Slipcase serializers, value formats,
 * buffer allocators, Redis templates and value templates defined as beans, and each
 * {@link ShardedTemplate} bean with its layout, the server limits it guards against and a fresh
 * memory report, and, when there is a {@link NearCacheManager} bean, the near tier of each of its
 * caches with its counters. {@code GET /actuator/slipcase/{namespace}} is one namespace's memory
 * report.
 * <p>
 * Memory reports sample up to the configured number of buckets with {@code SCAN},
 * {@code OBJECT ENCODING}, {@code HLEN} and {@code MEMORY USAGE}: each call talks to Redis.
 * A namespace whose report fails shows the error instead, and the rest of the response is still
 * returned. Thread-safe.
 */
@Endpoint(id = "slipcase")
public class SlipcaseEndpoint {

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("slipcase.redis");

	private final ListableBeanFactory beans;

	private final Environment environment;

	private final int reportBuckets;

	/**
	 * An endpoint over the beans of {@code beans} and the properties of {@code environment}.
	 * @param reportBuckets how many buckets a memory report samples per namespace, at least 1
	 */
	public SlipcaseEndpoint(ListableBeanFactory beans, Environment environment, int reportBuckets) {
		if (reportBuckets < 1) {
			throw new IllegalArgumentException("reportBuckets must be at least 1, was " + reportBuckets);
		}
		this.beans = beans;
		this.environment = environment;
		this.reportBuckets = reportBuckets;
	}

	/** The effective configuration and every sharded namespace's memory report. */
	@ReadOperation
	public SlipcaseDescriptor slipcase() {
		Map<String, SerializerDescriptor> serializers = new TreeMap<>();
		beansOf(RedisSerializer.class).forEach((name, serializer) -> {
			if (serializer instanceof SlipcaseRedisSerializer<?> slipcase) {
				serializers.put(name, new SerializerDescriptor(slipcase.format().name(),
						slipcase.getTargetType().getName(), slipcase.format().toString()));
			}
		});
		Map<String, String> formats = new TreeMap<>();
		beansOf(ValueFormat.class).forEach((name, format) -> formats.put(name, format.name()));
		Map<String, String> allocators = new TreeMap<>();
		beansOf(ByteBufAllocator.class).forEach((name, allocator) -> allocators.put(name, allocator.toString()));
		Map<String, TemplateDescriptor> templates = new TreeMap<>();
		beansOf(RedisTemplate.class).forEach((name, template) -> templates.put(name, TemplateDescriptor.of(template)));
		List<String> valueTemplates = List.copyOf(new TreeMap<>(beansOf(ValueTemplate.class)).keySet());
		Map<String, ShardedDescriptor> sharded = new TreeMap<>();
		for (ShardedTemplate<?> template : shardedTemplates().values()) {
			sharded.put(template.namespace().name(), describe(template));
		}
		SwitchOverSerializers switchOver = this.beans.getBeanProvider(SwitchOverSerializers.class).getIfUnique();
		Map<String, Long> jdkReads = (switchOver != null && !switchOver.jdkReads().isEmpty()) ? switchOver.jdkReads()
				: null;
		return new SlipcaseDescriptor(properties(), serializers, formats, allocators, templates, valueTemplates, sharded,
				nearCaches(), jdkReads);
	}

	/**
	 * The near tier of each cache of every {@link NearCacheManager} bean, by cache name (by
	 * {@code <bean name>/<cache name>} for a name two managers share), or {@code null} when there
	 * is no such bean.
	 */
	private @Nullable Map<String, NearCacheDescriptor> nearCaches() {
		Map<String, NearCacheManager> managers = beansOf(NearCacheManager.class);
		if (managers.isEmpty()) {
			return null;
		}
		Map<String, Integer> managersByCache = new TreeMap<>();
		for (NearCacheManager manager : managers.values()) {
			manager.nearTiers().keySet().forEach((name) -> managersByCache.merge(name, 1, Integer::sum));
		}
		Map<String, NearCacheDescriptor> caches = new TreeMap<>();
		managers.forEach((beanName, manager) -> manager.nearTiers().forEach((name, near) -> {
			String key = (managersByCache.get(name) > 1) ? beanName + "/" + name : name;
			caches.put(key, NearCacheDescriptor.of(beanName, near));
		}));
		return caches;
	}

	/**
	 * A fresh memory report of one sharded namespace, or {@code null} (404 over HTTP) when no
	 * {@link ShardedTemplate} bean serves it.
	 * @param namespace the namespace's name
	 */
	@ReadOperation
	public @Nullable BucketMemoryReport namespace(@Selector String namespace) {
		for (ShardedTemplate<?> template : shardedTemplates().values()) {
			if (template.namespace().name().equals(namespace)) {
				return template.memoryReport(this.reportBuckets);
			}
		}
		return null;
	}

	/** The names of the sharded namespaces that {@link ShardedTemplate} beans serve, sorted. */
	public List<String> namespaces() {
		return shardedTemplates().values().stream().map((template) -> template.namespace().name()).sorted().toList();
	}

	private ShardedDescriptor describe(ShardedTemplate<?> template) {
		BucketMemoryReport report = null;
		String error = null;
		try {
			report = template.memoryReport(this.reportBuckets);
		}
		catch (RuntimeException ex) {
			error = ex.getClass().getSimpleName() + ": " + ex.getMessage();
		}
		return new ShardedDescriptor(template.namespace().alias(), template.namespace().keyPrefix(),
				template.namespace().bucketPrefix(), template.layout(), template.limits(), report, error);
	}

	/** Every {@code slipcase.redis.*} property, canonical name to the value that wins. */
	private Map<String, @Nullable Object> properties() {
		Map<String, @Nullable Object> properties = new TreeMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.filter(PREFIX::isAncestorOf).forEach((name) -> {
				String key = name.toString();
				if (!properties.containsKey(key)) {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					Object value = (property != null) ? property.getValue() : null;
					if (value instanceof String text) {
						value = this.environment.resolvePlaceholders(text);
					}
					properties.put(key, (value != null) ? value.toString() : null);
				}
			});
		}
		return properties;
	}

	@SuppressWarnings("rawtypes")
	private Map<String, ShardedTemplate> shardedTemplates() {
		return beansOf(ShardedTemplate.class);
	}

	private <T> Map<String, T> beansOf(Class<T> type) {
		return this.beans.getBeansOfType(type, false, false);
	}

	/**
	 * What {@code GET /actuator/slipcase} returns.
	 * @param properties every {@code slipcase.redis.*} property set, canonical name to value
	 * @param serializers Slipcase {@code RedisSerializer} beans by bean name
	 * @param formats {@code ValueFormat} beans by bean name, to the format's name
	 * @param allocators {@code ByteBufAllocator} beans by bean name
	 * @param redisTemplates {@code RedisTemplate} beans by bean name, with their serializers
	 * @param valueTemplates the names of the {@code ValueTemplate} beans
	 * @param sharded each {@code ShardedTemplate} bean by namespace name
	 * @param nearCaches the near tier of each cache of the {@code NearCacheManager} beans, by cache
	 * name; {@code null}, and left out of the JSON, when there is no such bean
	 * @param jdkReads the JDK-serialized values read by each cache and by sessions while they
	 * switch over, by {@code <feature>/<name>}; {@code null}, and left out of the JSON, when none
	 * switches over
	 */
	public record SlipcaseDescriptor(Map<String, @Nullable Object> properties, Map<String, SerializerDescriptor> serializers,
			Map<String, String> formats, Map<String, String> allocators, Map<String, TemplateDescriptor> redisTemplates,
			List<String> valueTemplates, Map<String, ShardedDescriptor> sharded,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, NearCacheDescriptor> nearCaches,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Long> jdkReads) {
	}

	/**
	 * A Slipcase serializer.
	 * @param format the name of the format it writes
	 * @param targetType the type it reports to Spring Data
	 * @param description the format, with what it reads
	 */
	public record SerializerDescriptor(String format, String targetType, String description) {
	}

	/**
	 * A {@code RedisTemplate}'s serializers: a Slipcase serializer with its format, any other by class.
	 * @param key the key serializer
	 * @param value the value serializer
	 * @param hashKey the hash key serializer
	 * @param hashValue the hash value serializer
	 */
	public record TemplateDescriptor(@Nullable String key, @Nullable String value, @Nullable String hashKey,
			@Nullable String hashValue) {

		static TemplateDescriptor of(RedisTemplate<?, ?> template) {
			return new TemplateDescriptor(describe(template.getKeySerializer()), describe(template.getValueSerializer()),
					describe(template.getHashKeySerializer()), describe(template.getHashValueSerializer()));
		}

		private static @Nullable String describe(@Nullable RedisSerializer<?> serializer) {
			if (serializer == null) {
				return null;
			}
			return (serializer instanceof SlipcaseRedisSerializer<?>) ? serializer.toString()
					: serializer.getClass().getName();
		}

	}

	/**
	 * A sharded namespace served by a {@code ShardedTemplate} bean.
	 * @param alias the alias in its bucket keys
	 * @param keyPrefix the prefix of its logical keys
	 * @param bucketPrefix the prefix of its bucket keys
	 * @param layout the layout stored in Redis
	 * @param limits the server limits it guards against
	 * @param memory a fresh memory report, or {@code null} when it failed
	 * @param error why the memory report failed, or {@code null}
	 */
	public record ShardedDescriptor(String alias, String keyPrefix, String bucketPrefix, ShardLayout layout,
			ServerLimits limits, @Nullable BucketMemoryReport memory, @Nullable String error) {
	}

	/**
	 * The near tier of a cache, as it is when the endpoint is read: each counter counts since the
	 * application started.
	 * @param cacheManager the bean name of its {@code NearCacheManager}
	 * @param size how many entries it holds (an estimate while others write)
	 * @param hits reads it served
	 * @param misses reads that went to Redis while tracking was trusted
	 * @param bypassed reads that went to Redis because tracking was not trusted
	 * @param invalidations keys Redis reported changed
	 * @param flushes times it forgot everything (flushes, clears, tracking lost)
	 * @param trusted whether Redis' invalidations are trusted, so it serves values
	 */
	public record NearCacheDescriptor(String cacheManager, long size, long hits, long misses, long bypassed,
			long invalidations, long flushes, boolean trusted) {

		static NearCacheDescriptor of(String cacheManager, NearCache near) {
			return new NearCacheDescriptor(cacheManager, near.size(), near.hits(), near.misses(), near.bypassed(),
					near.invalidations(), near.flushes(), near.isTrusted());
		}

	}

	@Override
	public String toString() {
		return "SlipcaseEndpoint[reportBuckets=" + this.reportBuckets + "]";
	}

}
