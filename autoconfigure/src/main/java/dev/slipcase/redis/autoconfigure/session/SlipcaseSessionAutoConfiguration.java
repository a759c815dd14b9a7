package dev.slipcase.redis.autoconfigure.session;

import java.util.Map;
import java.util.function.BiFunction;

import dev.slipcase.redis.autoconfigure.Settings;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationException;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.autoconfigure.SlipcaseRedisProperties;
import dev.slipcase.redis.autoconfigure.SwitchOverSerializers;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.jdk.SwitchOverPhase;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.MapSession;
import org.springframework.session.config.ReactiveSessionRepositoryCustomizer;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.data.redis.ReactiveRedisSessionRepository;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.session.data.redis.RedisSessionMapper;
import org.springframework.session.data.redis.RedisSessionRepository;

import static dev.slipcase.redis.autoconfigure.Settings.compressionOrNull;

/**
 * Spring Session's values through Slipcase, when spring-session-data-redis is present: the
 * {@code springSessionDefaultRedisSerializer} Spring Session looks up by name (JSON with type
 * information by default, Spring Security's types through its Jackson modules; Fory with them
 * registered; or a format and compression of {@code slipcase.redis.session.*}), and repository customizers that treat a
 * session with an unreadable value as absent, for servlet and WebFlux sessions alike; after
 * {@link SlipcaseRedisAutoConfiguration} made the serializer family.
 */
@AutoConfiguration(after = SlipcaseRedisAutoConfiguration.class)
@ConditionalOnClass(name = SlipcaseSessionAutoConfiguration.REDIS_SESSION_REPOSITORY)
@ConditionalOnBean({ SlipcaseSerializerFamily.class, SwitchOverSerializers.class })
@ConditionalOnBooleanProperty(name = "slipcase.redis.session.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SlipcaseRedisProperties.class)
public final class SlipcaseSessionAutoConfiguration {

	static final String REDIS_SESSION_REPOSITORY = "org.springframework.session.data.redis.RedisSessionRepository";

	static final String REACTIVE_REDIS_SESSION_REPOSITORY = "org.springframework.session.data.redis.ReactiveRedisSessionRepository";

	@Bean
	@ConditionalOnMissingBean(name = "springSessionDefaultRedisSerializer")
	SessionValueSerializer springSessionDefaultRedisSerializer(SlipcaseRedisProperties properties,
			SlipcaseSerializerFamily family, BeanFactory beanFactory, SwitchOverSerializers switchOver) {
		ClassLoader classLoader = Settings.classLoader(beanFactory);
		RedisSerializer<Object> current = currentSerializer(properties, family, classLoader);
		return new SessionValueSerializer(
				switchOver.of(current, () -> SessionFormats.jdkAllowlist(switchOver.allowlist(), classLoader),
						properties.getSession().getSwitchOver(), "session", "session"));
	}

	/**
	 * In {@code read-jdk}, Spring Session's servlet repository writes a session loaded with a
	 * JDK-serialized value again whole on its next save ({@link RewritingSessionRepository}).
	 */
	@Bean
	static BeanPostProcessor slipcaseRewritingSessionRepositoryPostProcessor(
			ObjectProvider<SlipcaseRedisProperties> properties) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof RedisSessionRepository repository
						&& properties.getObject().getSession().getSwitchOver() == SwitchOverPhase.READ_JDK) {
					return RewritingSessionRepository.proxy(repository);
				}
				return bean;
			}

		};
	}

	private static RedisSerializer<Object> currentSerializer(SlipcaseRedisProperties properties,
			SlipcaseSerializerFamily family, ClassLoader classLoader) {
		SlipcaseRedisProperties.Session session = properties.getSession();
		String compression = compressionOrNull(session.getCompression());
		Settings.requireFormatLibrary(session.getFormat(), "slipcase.redis.session.format", classLoader);
		if (session.getFormat() == FormatKind.PROTOSTUFF) {
			return family.valueSerializer(session.getFormat(), (compression != null) ? compression : "none");
		}
		TaggedFormat<Object> values = (session.getFormat() == FormatKind.FORY) ? SessionFormats.fory(family, classLoader)
				: SessionFormats.json(family, classLoader);
		SelfDescribingFormat.Builder<Object> format = SelfDescribingFormat.builder(values)
			.compressors(family.compressors())
			.allocator(family.allocator())
			.observer(family.observer());
		if (compression != null) {
			Compressor compressor = family.compressors().byName(compression);
			if (compressor == null) {
				throw new SlipcaseConfigurationException("slipcase.redis.session.compression",
						"No compressor named '" + compression + "'; available: " + family.compressors().names(),
						"Set slipcase.redis.session.compression to none or to one of " + family.compressors().names()
								+ ".",
						null);
			}
			format.compression(compressor, Settings.toInt(properties.getCompression().getMinSize().toBytes(),
					"slipcase.redis.compression.min-size"));
		}
		return SlipcaseRedisSerializer.of(format.build(), Object.class, family.allocator());
	}

	@Bean
	SessionRepositoryCustomizer<RedisSessionRepository> slipcaseRedisSessionRepositoryCustomizer() {
		return (repository) -> repository
			.setRedisSessionMapper(SessionValueSerializer.sessionMapper(new RedisSessionMapper()));
	}

	@Bean
	SessionRepositoryCustomizer<RedisIndexedSessionRepository> slipcaseRedisIndexedSessionRepositoryCustomizer() {
		return (repository) -> repository
			.setRedisSessionMapper(SessionValueSerializer.sessionMapper(new RedisSessionMapper()));
	}

	/**
	 * The same for WebFlux sessions: Spring Session's reactive repository reads its values with the
	 * same {@code springSessionDefaultRedisSerializer}, and a session holding one it cannot read is
	 * absent (the repository deletes it) rather than an error.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { REACTIVE_REDIS_SESSION_REPOSITORY, "reactor.core.publisher.Mono" })
	static final class ReactiveSessions {

		@Bean
		ReactiveSessionRepositoryCustomizer<ReactiveRedisSessionRepository> slipcaseReactiveRedisSessionRepositoryCustomizer() {
			BiFunction<String, Map<String, Object>, @Nullable MapSession> mapper = SessionValueSerializer
				.sessionMapper(new RedisSessionMapper());
			return (repository) -> repository
				.setRedisSessionMapper((id, values) -> Mono.justOrEmpty(mapper.apply(id, values)));
		}

	}

}
