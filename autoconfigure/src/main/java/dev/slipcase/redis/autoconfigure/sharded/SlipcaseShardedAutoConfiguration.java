package dev.slipcase.redis.autoconfigure.sharded;

import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.sharded.ShardedTemplates;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of Slipcase's hash-sharded small-value templates on Boot's
 * {@link LettuceConnectionFactory}:
 * <ul>
 * <li>{@code slipcaseShardedTemplates}, the {@link ShardedTemplates} factory for namespaces built in
 * code ({@code shardedTemplates.template(ShardedNamespace.builder("x")...build(), serializer)}).
 * Lazy: it connects (one {@code byte[]} connection of its own, closed on shutdown) and probes the
 * server only when first needed, so an application that declares no namespace starts without a
 * running Redis, as with Boot's own connection factory;</li>
 * <li>one {@code ShardedTemplate<V>} bean per namespace under
 * {@code slipcase.redis.sharded.namespaces}, named {@code <name in camel case>ShardedTemplate}.
 * These are created at start-up, which reads the server's limits and stores or checks each
 * namespace's layout, so a layout that differs from the stored one (or an unreachable Redis) fails
 * start-up with a failure analysis, much as a schema migration tool does; with
 * {@code slipcase.redis.sharded.lazy-initialization=true} they are created on first use
 * instead.</li>
 * </ul>
 * Invalid namespace properties fail start-up before anything connects. Every bean backs off when
 * the application defines its own (namespace templates by bean name).
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class,
		afterName = "dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration")
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class })
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@ConditionalOnBean(LettuceConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "slipcase.redis.sharded.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SlipcaseShardedProperties.class)
@Import(ShardedNamespaceRegistrar.class)
public final class SlipcaseShardedAutoConfiguration {

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	ShardedTemplates slipcaseShardedTemplates(LettuceConnectionFactory connectionFactory) {
		if (!connectionFactory.isRunning()) {
			// Spring Data starts the factory in afterPropertiesSet unless early start-up is off
			connectionFactory.start();
		}
		try {
			return ShardedTemplates.create(connectionFactory::getRequiredNativeClient);
		}
		catch (RedisException | DataAccessException ex) {
			throw ShardedNamespaceBeans.unreachable("spring.data.redis", ex);
		}
	}

	@Bean(ShardedNamespaceRegistrar.FACTORY_BEAN)
	ShardedNamespaceBeans slipcaseShardedNamespaceBeans(ObjectProvider<ShardedTemplates> shardedTemplates,
			SlipcaseShardedProperties properties, ObjectProvider<FormatRouter> formatRouter,
			ObjectProvider<ShardedNamespaceCustomizer> customizers, ObjectProvider<ObservationRegistry> observations) {
		return new ShardedNamespaceBeans(shardedTemplates, properties, formatRouter, customizers,
				observations.getIfUnique(() -> ObservationRegistry.NOOP));
	}

}
