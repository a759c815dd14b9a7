package dev.slipcase.redis.autoconfigure.sharded;

import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationFailureAnalyzer;
import java.time.Instant;
import java.util.List;

import dev.slipcase.redis.autoconfigure.Order;
import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.sharded.ShardLayoutMismatchException;
import dev.slipcase.redis.sharded.ShardedNamespace;
import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.ShardedTemplates;
import dev.slipcase.redis.sharded.ShardingStrategy;
import dev.slipcase.redis.sharded.TtlFallback;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.BeforeEach;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SlipcaseShardedAutoConfiguration}: every condition with an
 * {@link ApplicationContextRunner}, and namespaces declared only in properties working end to end
 * against a real Redis.
 */
class SlipcaseShardedAutoConfigurationTests {

	private final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseShardedAutoConfiguration.class))
		.withPropertyValues(RedisProperties.of(this.redis));

	@BeforeEach
	void flush() {
		this.redis.flushAll();
	}

	@Test
	void byDefaultOffersTheFactoryLazilySoStartUpNeedsNoRedis() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseShardedAutoConfiguration.class))
			.withPropertyValues(RedisProperties.unreachable())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ConfigurableListableBeanFactory beans = context.getBeanFactory();
				assertThat(beans.getBeanDefinition("slipcaseShardedTemplates").isLazyInit()).isTrue();
				assertThat(beans.containsSingleton("slipcaseShardedTemplates")).isFalse();
				assertThat(context.getBeanNamesForType(ShardedTemplate.class)).isEmpty();
			});
	}

	@Test
	void withAnObservationRegistryANamespacesCallsAreObserved() {
		TestObservationRegistry observations = TestObservationRegistry.create();
		this.runner.withBean(ObservationRegistry.class, () -> observations)
			.withPropertyValues("slipcase.redis.sharded.namespaces.page-views.key-prefix=views:",
					"slipcase.redis.sharded.namespaces.page-views.value-type=java.lang.Long")
			.run((context) -> {
				@SuppressWarnings("unchecked")
				ShardedTemplate<Long> views = context.getBean("pageViewsShardedTemplate", ShardedTemplate.class);
				views.set("views:1", 5L);
				TestObservationRegistryAssert.assertThat(observations)
					.hasObservationWithNameEqualTo("slipcase.redis.sharded")
					.that()
					.hasLowCardinalityKeyValue("slipcase.operation", "set")
					.hasLowCardinalityKeyValue("slipcase.namespace", "page-views")
					.hasLowCardinalityKeyValue("slipcase.outcome", "success")
					.hasBeenStopped();
			});
	}

	@Test
	void theFactoryMakesNamespacesInCode() {
		this.runner.run((context) -> {
			ShardedTemplates templates = context.getBean(ShardedTemplates.class);
			ShardedTemplate<String> flags = templates.template(
					ShardedNamespace.builder("flags").strategy(ShardingStrategy.HASHED).bucketCount(8).build(),
					SlipcaseSerializers.string());
			flags.set("dark-mode", "on");
			assertThat(flags.get("dark-mode")).isEqualTo("on");
		});
	}

	@Test
	void aNamespaceDeclaredInPropertiesWorksEndToEndAsHashFields() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.namespaces.page-views.alias=pv",
					"slipcase.redis.sharded.namespaces.page-views.key-prefix=views:",
					"slipcase.redis.sharded.namespaces.page-views.bucket-size=100",
					"slipcase.redis.sharded.namespaces.page-views.value-type=java.lang.Long")
			.run((context) -> {
				assertThat(context).hasBean("pageViewsShardedTemplate");
				assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(ShardedTemplate.class, Long.class)))
					.containsExactly("pageViewsShardedTemplate");
				@SuppressWarnings("unchecked")
				ShardedTemplate<Long> views = context.getBean("pageViewsShardedTemplate", ShardedTemplate.class);
				views.set("views:1234", 5L);
				assertThat(views.incrBy("views:1234", 2)).isEqualTo(7);
				assertThat(views.get("views:1234")).isEqualTo(7L);
				assertThat(this.redis.command("TYPE", "~sc:{pv:n:12}")).isEqualTo("hash");
				assertThat(this.redis.command("HGET", "~sc:{pv:n:12}", "34")).isEqualTo("7");
				assertThat(this.redis.command("EXISTS", "views:1234")).isEqualTo(0L);
			});
	}

	@Test
	void aNamespaceTemplateKeepsWorkingAfterTheContextIsStoppedAndStarted() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.namespaces.page-views.alias=pv",
					"slipcase.redis.sharded.namespaces.page-views.key-prefix=views:",
					"slipcase.redis.sharded.namespaces.page-views.value-type=java.lang.Long")
			.run((context) -> {
				@SuppressWarnings("unchecked")
				ShardedTemplate<Long> views = context.getBean("pageViewsShardedTemplate", ShardedTemplate.class);
				views.set("views:1", 1L);
				// stopping shuts the connection factory's client down; starting makes a new one, as Spring's
				// test-context pausing and an application's stop/start do
				context.getSourceApplicationContext(ConfigurableApplicationContext.class).stop();
				context.getSourceApplicationContext(ConfigurableApplicationContext.class).start();
				assertThat(views.incrBy("views:1", 2)).isEqualTo(3);
				assertThat(views.get("views:1")).isEqualTo(3L);
				assertThat(this.redis.command("HGET", "~sc:{pv:n:0}", "1")).isEqualTo("3");
			});
	}

	@Test
	void aHashedNamespaceOfRecordsStoresJsonFields() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.namespaces.orders.strategy=hashed",
					"slipcase.redis.sharded.namespaces.orders.bucket-count=4",
					"slipcase.redis.sharded.namespaces.orders.max-value-size=1KB",
					"slipcase.redis.sharded.namespaces.orders.value-type=" + Order.class.getName())
			.run((context) -> {
				@SuppressWarnings("unchecked")
				ShardedTemplate<Order> orders = context.getBean("ordersShardedTemplate", ShardedTemplate.class);
				assertThat(orders.layout().strategy()).isEqualTo(ShardingStrategy.HASHED);
				assertThat(orders.layout().bucketCount()).isEqualTo(4);
				Order order = new Order("a-1", Instant.parse("2026-11-21T10:00:00Z"), List.of("tea"), null);
				orders.set("a-1", order);
				assertThat(orders.get("a-1")).isEqualTo(order);
				List<String> buckets = List.of(0, 1, 2, 3).stream().map((i) -> "~sc:{orders:h:" + i + "}").toList();
				String stored = buckets.stream()
					.map((bucket) -> this.redis.command("HGET", bucket, "a-1"))
					.filter((value) -> value != null)
					.map(String.class::cast)
					.findFirst()
					.orElseThrow();
				assertThat(stored).contains("\"placedAt\":\"2026-11-21T10:00:00Z\"");
			});
	}

	@Test
	void serverLimitOverridesTtlPolicyAndBucketTtlComeFromProperties() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.namespaces.sessions.max-entries=200",
					"slipcase.redis.sharded.namespaces.sessions.max-value-size=32B",
					"slipcase.redis.sharded.namespaces.sessions.fill-factor=0.5",
					"slipcase.redis.sharded.namespaces.sessions.ttl-fallback=refuse",
					"slipcase.redis.sharded.namespaces.sessions.bucket-ttl=10m",
					"slipcase.redis.sharded.namespaces.sessions.read-through=true")
			.run((context) -> {
				@SuppressWarnings("unchecked")
				ShardedTemplate<String> sessions = context.getBean("sessionsShardedTemplate", ShardedTemplate.class);
				assertThat(sessions.limits().maxEntries()).isEqualTo(200);
				assertThat(sessions.limits().maxValueBytes()).isEqualTo(32);
				assertThat(sessions.layout().bucketSize()).isEqualTo(100);
				assertThat(sessions.namespace().ttlFallback()).isEqualTo(TtlFallback.REFUSE);
				assertThat(sessions.namespace().readThrough()).isTrue();
				sessions.set("5", "x");
				long ttl = (Long) this.redis.command("TTL", "~sc:{sessions:n:0}");
				assertThat(ttl).isBetween(1L, 600L);
				this.redis.command("SET", "77", "old");
				assertThat(sessions.get("77")).isEqualTo("old");
			});
	}

	@Test
	void aCustomizerSeesEveryDeclaredNamespace() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.a.bucket-size=10",
				"slipcase.redis.sharded.namespaces.b.bucket-size=10")
			.withBean(ShardedNamespaceCustomizer.class, () -> (name, builder) -> builder.keyPrefix(name + ":"))
			.run((context) -> {
				assertThat(context.getBean("aShardedTemplate", ShardedTemplate.class).namespace().keyPrefix()).isEqualTo("a:");
				assertThat(context.getBean("bShardedTemplate", ShardedTemplate.class).namespace().keyPrefix()).isEqualTo("b:");
			});
	}

	@Test
	void aFillFactorOver100PercentFailsStartUpBeforeConnecting() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseShardedAutoConfiguration.class))
			.withPropertyValues(RedisProperties.unreachable())
			.withPropertyValues("slipcase.redis.sharded.namespaces.users.fill-factor=1.5")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("slipcase.redis.sharded.namespaces.users.fill-factor")
					.contains("150%");
				assertThat(analysis.getAction()).contains("at most 1 (100%)");
			});
	}

	@Test
	void anInvalidBucketPrefixFailsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-prefix={x}").run((context) -> {
			FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("slipcase.redis.sharded.namespaces.users.bucket-prefix");
		});
	}

	@Test
	void contradictingSettingsFailStartUpNamingTheNamespace() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.namespaces.users.strategy=hashed",
					"slipcase.redis.sharded.namespaces.users.bucket-size=10")
			.run((context) -> {
				FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("slipcase.redis.sharded.namespaces.users")
					.contains("bucketSize applies to NUMERIC");
			});
	}

	@Test
	void anUnknownStrategyFailsBindingWithTheValidValues() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.strategy=striped").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("striped");
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof BindException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(BindException.class);
			assertThat(((BindException) failure).getProperty().getName().toString())
				.isEqualTo("slipcase.redis.sharded.namespaces.users.strategy");
		});
	}

	@Test
	void aLayoutMismatchFailsStartUpSayingWhatToChange() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=50").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(ShardLayoutMismatchException.class);
			FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("slipcase.redis.sharded.namespaces.users")
				.contains("bucketSize 100");
			assertThat(analysis.getAction()).contains("slipcase.redis.sharded.namespaces.users.alias").contains("migrator");
		});
	}

	@Test
	void anUnreachableRedisFailsStartUpWhenANamespaceIsDeclared() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseShardedAutoConfiguration.class))
			.withPropertyValues(RedisProperties.unreachable())
			.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("could not be reached");
				assertThat(analysis.getAction()).contains("slipcase.redis.sharded.lazy-initialization=true");
			});
	}

	@Test
	void lazyInitializationStartsWithoutRedisAndCreatesTemplatesOnFirstUse() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseShardedAutoConfiguration.class))
			.withPropertyValues(RedisProperties.unreachable())
			.withPropertyValues("slipcase.redis.sharded.lazy-initialization=true",
					"slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBeanFactory().getBeanDefinition("usersShardedTemplate").isLazyInit()).isTrue();
				assertThat(context.getBeanFactory().containsSingleton("usersShardedTemplate")).isFalse();
			});
		this.runner
			.withPropertyValues("slipcase.redis.sharded.lazy-initialization=true",
					"slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> {
				assertThat(context.getBeanFactory().containsSingleton("usersShardedTemplate")).isFalse();
				assertThat(context.getBean("usersShardedTemplate", ShardedTemplate.class).layout().bucketSize())
					.isEqualTo(100);
			});
	}

	@Test
	void namespacesWhoseBeanNamesClashFailStartUp() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.user-prefs.bucket-size=10",
				"slipcase.redis.sharded.namespaces[user.prefs].bucket-size=10").run((context) -> {
					FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
					assertThat(analysis.getDescription()).contains("userPrefsShardedTemplate");
				});
	}

	@Test
	void backsOffForAUserDefinedNamespaceBean() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.withUserConfiguration(UserNamespaceBean.class)
			.run((context) -> assertThat(context.getBean("usersShardedTemplate")).isSameAs(UserNamespaceBean.TEMPLATE));
	}

	@Test
	void declaredNamespacesUseAUserDefinedFactory() {
		this.runner.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.withUserConfiguration(UserFactory.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(ShardedTemplates.class);
				assertThat(context).hasBean("userShardedTemplates").doesNotHaveBean("slipcaseShardedTemplates");
				assertThat(context.getBean("usersShardedTemplate", ShardedTemplate.class).layout().bucketSize())
					.isEqualTo(100);
			});
	}

	@Test
	void disabledByProperty() {
		this.runner
			.withPropertyValues("slipcase.redis.sharded.enabled=false",
					"slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ShardedTemplates.class);
				assertThat(context).doesNotHaveBean("usersShardedTemplate");
			});
	}

	@Test
	void needsLettuce() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(ShardedTemplates.class);
			});
	}

	@Test
	void needsAConnectionFactory() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SlipcaseShardedAutoConfiguration.class))
			.withPropertyValues("slipcase.redis.sharded.namespaces.users.bucket-size=100")
			.run((context) -> assertThat(context).doesNotHaveBean(ShardedTemplates.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserNamespaceBean {

		static final Object TEMPLATE = new Object();

		@Bean
		Object usersShardedTemplate() {
			return TEMPLATE;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserFactory {

		@Bean(destroyMethod = "close")
		ShardedTemplates userShardedTemplates(LettuceConnectionFactory factory) {
			return ShardedTemplates.create(factory.getRequiredNativeClient());
		}

	}

}
