package dev.slipcase.redis.autoconfigure.template;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.autoconfigure.BootTrackedNodes;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheTracking;
import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;
import io.lettuce.core.RedisClient;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of Slipcase's zero-copy {@link ValueTemplate}s on Boot's
 * {@link LettuceConnectionFactory}:
 * <ul>
 * <li>{@code slipcaseValueTemplates}, a {@link ValueTemplates} factory of typed templates
 * ({@code valueTemplates.forType(Order.class)}) sharing one set of connections, each type in the
 * format the {@link FormatRouter} bean (if unique, else a default router) chooses for it, buffers
 * from the {@link ByteBufAllocator} bean (if unique, else Netty's default); closed on shutdown,
 * which closes the connections it opened, never the factory;</li>
 * <li>{@code slipcaseValueTemplate}, a {@code ValueTemplate<Object>} for the allowlisted types
 * (the {@link TypeAllowlist} bean if unique, else {@code slipcase.redis.template.types}), only
 * when there is an allowlist; with {@code slipcase.redis.template.near.enabled}, its reads go
 * through a near tier ({@code slipcaseValueTemplateNearCache}, kept correct by
 * {@code slipcaseValueTemplateNearCacheTracking} on {@code slipcase.redis.template.near.key-prefixes}).</li>
 * </ul>
 * Connections open on first use, so start-up does not need a running Redis (as with Boot's own
 * connection factory). Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class,
		afterName = "dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration")
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class, JsonMapper.class })
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@ConditionalOnBean(LettuceConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "slipcase.redis.template.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SlipcaseValueTemplateProperties.class)
public final class SlipcaseValueTemplateAutoConfiguration {

	/** The bean name of the near tier of {@code slipcaseValueTemplate}. */
	public static final String NEAR_CACHE = "slipcaseValueTemplateNearCache";

	@Bean
	@ConditionalOnMissingBean
	ValueTemplates slipcaseValueTemplates(LettuceConnectionFactory connectionFactory,
			SlipcaseValueTemplateProperties properties, ObjectProvider<FormatRouter> formatRouter,
			ObjectProvider<SlipcaseSerializerFamily> family,
			ObjectProvider<ByteBufAllocator> allocator, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<ValueTemplateCustomizer> customizers) {
		if (!connectionFactory.isRunning()) {
			// Spring Data starts the factory in afterPropertiesSet unless early start-up is off
			connectionFactory.start();
		}
		ValueTemplates.Builder builder = ValueTemplates.builder(connectionFactory)
			.callerThreadDecodingFrom(callerThreadDecodingFrom(properties))
			.unacknowledgedWrites(properties.getUnacknowledgedWrites())
			.chunkSize(chunkSize(properties.getTransfer()))
			.transferWindow(transferWindow(properties.getTransfer()));
		if (properties.getDatabase() != null) {
			try {
				builder.database(properties.getDatabase());
			}
			catch (IllegalArgumentException ex) {
				throw new SlipcaseConfigurationException("slipcase.redis.template.database", ex.getMessage(),
						"Set slipcase.redis.template.database to a database number of 0 or more, or remove it "
								+ "to use the connection factory's database.",
						ex);
			}
		}
		// a FormatRouter of the application's, else the family's: its formats report to this
		// context's observer
		FormatRouter router = formatRouter.getIfUnique(() -> {
			SlipcaseSerializerFamily serializers = family.getIfUnique();
			return (serializers != null) ? serializers.router() : null;
		});
		if (router != null) {
			builder.formatRouter(router);
		}
		allocator.ifUnique(builder::allocator);
		observationRegistry.ifUnique(builder::observationRegistry);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		return builder.build();
	}

	// the connections belong to slipcaseValueTemplates, which closes them
	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean(name = "slipcaseValueTemplate")
	@Conditional(AllowlistCondition.class)
	ValueTemplate<Object> slipcaseValueTemplate(ValueTemplates valueTemplates,
			SlipcaseValueTemplateProperties properties, ObjectProvider<TypeAllowlist> allowlist,
			@Qualifier(NEAR_CACHE) ObjectProvider<NearCache> near) {
		TypeAllowlist types = allowlist.getIfUnique(() -> allowlist(properties.getTypes()));
		try {
			ValueTemplate<Object> template = valueTemplates.forTypes(types);
			NearCache tier = near.getIfAvailable();
			return (tier != null) ? template.withNearCache(tier) : template;
		}
		catch (IllegalArgumentException ex) {
			throw new SlipcaseConfigurationException("slipcase.redis.template.types", ex.getMessage(),
					"Choose a format each allowlisted type supports (@RedisFormat or the format router's "
							+ "registrations), or remove the type from slipcase.redis.template.types.",
					ex);
		}
	}

	/** The near tier of {@code slipcaseValueTemplate}, and what keeps it correct. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "com.github.benmanes.caffeine.cache.Caffeine")
	@ConditionalOnBooleanProperty("slipcase.redis.template.near.enabled")
	static final class NearTierConfiguration {

		@Bean(NEAR_CACHE)
		@ConditionalOnMissingBean(name = NEAR_CACHE)
		NearCache slipcaseValueTemplateNearCache(SlipcaseValueTemplateProperties properties) {
			SlipcaseValueTemplateProperties.Near near = properties.getNear();
			return new NearCache("slipcaseValueTemplate", near.getMaximumSize(), near.getMaximumAge());
		}

		@Bean
		@ConditionalOnMissingBean(name = "slipcaseValueTemplateNearCacheTracking")
		NearCacheTracking slipcaseValueTemplateNearCacheTracking(SlipcaseValueTemplateProperties properties,
				@Qualifier(NEAR_CACHE) NearCache near, LettuceConnectionFactory connectionFactory) {
			List<String> prefixes = properties.getNear().getKeyPrefixes();
			if (prefixes.isEmpty()) {
				throw new SlipcaseConfigurationException("slipcase.redis.template.near.key-prefixes",
						"the near tier of slipcaseValueTemplate tracks no key prefix",
						"List the prefixes of the keys the template reads (an empty string tracks every key), or turn "
								+ "slipcase.redis.template.near.enabled off.",
						null);
			}
			if (!connectionFactory.isRunning()) {
				connectionFactory.start();
			}
			Map<String, NearCache> byPrefix = new LinkedHashMap<>();
			prefixes.forEach((prefix) -> byPrefix.put(prefix, near));
			return NearCacheTracking.start(BootTrackedNodes.of(connectionFactory), byPrefix,
					properties.getNear().getHeartbeat());
		}

	}

	private static TypeAllowlist allowlist(Map<String, Class<?>> types) {
		TypeAllowlist.Builder builder = TypeAllowlist.builder();
		types.forEach((id, type) -> {
			try {
				builder.allow(id, type);
			}
			catch (IllegalArgumentException ex) {
				throw new SlipcaseConfigurationException("slipcase.redis.template.types." + id, ex.getMessage(),
						"Use type ids of 1 to 64 letters, digits or '_.:-' in slipcase.redis.template.types.", ex);
			}
		});
		return builder.build();
	}

	/** An allowlist exists: a {@link TypeAllowlist} bean, or types in the properties. */
	static final class AllowlistCondition extends AnyNestedCondition {

		AllowlistCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBean(TypeAllowlist.class)
		static final class AllowlistBean {

		}

		@Conditional(TypesPropertyCondition.class)
		static final class TypesProperty {

		}

	}

	/** {@code slipcase.redis.template.types} has at least one entry. */
	static final class TypesPropertyCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			boolean present = Binder.get(context.getEnvironment())
				.bind("slipcase.redis.template.types", Bindable.mapOf(String.class, String.class))
				.map((types) -> !types.isEmpty())
				.orElse(false);
			return present ? ConditionOutcome.match("slipcase.redis.template.types is set")
					: ConditionOutcome.noMatch("slipcase.redis.template.types is empty");
		}

	}

	private static int callerThreadDecodingFrom(SlipcaseValueTemplateProperties properties) {
		long bytes = properties.getCallerThreadDecodingFrom().toBytes();
		if (bytes < 0) {
			throw new SlipcaseConfigurationException("slipcase.redis.template.caller-thread-decoding-from",
					"Size " + bytes + " bytes is negative",
					"Set slipcase.redis.template.caller-thread-decoding-from to 0 or more (0 decodes every value on "
							+ "the caller's thread).",
					null);
		}
		// from 2 GB on no value is decoded on the caller's thread
		return (int) Math.min(bytes, Integer.MAX_VALUE);
	}

	private static int chunkSize(SlipcaseValueTemplateProperties.Transfer transfer) {
		long bytes = transfer.getChunkSize().toBytes();
		if (bytes < 1 || bytes > Integer.MAX_VALUE - 8) {
			throw new SlipcaseConfigurationException("slipcase.redis.template.transfer.chunk-size",
					"Size " + bytes + " bytes is not a chunk size",
					"Set slipcase.redis.template.transfer.chunk-size to at least 1B and below 2GB; 256KB is the default.",
					null);
		}
		return (int) bytes;
	}

	private static int transferWindow(SlipcaseValueTemplateProperties.Transfer transfer) {
		if (transfer.getWindow() < 1) {
			throw new SlipcaseConfigurationException("slipcase.redis.template.transfer.window",
					"Window " + transfer.getWindow() + " holds no chunk",
					"Set slipcase.redis.template.transfer.window to 1 or more; 8 is the default.", null);
		}
		return transfer.getWindow();
	}

}
