package dev.slipcase.redis.autoconfigure.template;

import java.time.Instant;
import java.util.List;

import dev.slipcase.redis.autoconfigure.Order;
import dev.slipcase.redis.autoconfigure.RedisProperties;
import dev.slipcase.redis.autoconfigure.SlipcaseConfigurationFailureAnalyzer;
import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.serializer.FormatKind;
import dev.slipcase.redis.serializer.FormatRouter;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.template.UnacknowledgedWrites;
import dev.slipcase.redis.template.ValueLease;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.template.ValueTemplates;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link SlipcaseValueTemplateAutoConfiguration}: every condition with an
 * {@link ApplicationContextRunner}, and round trips through the beans against a real Redis.
 */
class SlipcaseValueTemplateAutoConfigurationTests {

	private final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				SlipcaseValueTemplateAutoConfiguration.class))
		.withPropertyValues(RedisProperties.of(this.redis));

	@BeforeEach
	void flush() {
		this.redis.flushAll();
	}

	@Test
	void byDefaultMakesTheFactoryButNoObjectTemplate() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ValueTemplates.class);
			assertThat(context).doesNotHaveBean("slipcaseValueTemplate");
			ValueTemplates templates = context.getBean(ValueTemplates.class);
			assertThat(templates.database()).isZero();
			assertThat(templates.callerThreadDecodingFrom()).isEqualTo(16 * 1024);
		});
	}

	@Test
	void startsWithoutARunningRedisBecauseConnectionsOpenOnFirstUse() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					SlipcaseValueTemplateAutoConfiguration.class))
			.withPropertyValues(RedisProperties.unreachable())
			.withPropertyValues("slipcase.redis.template.types.order=" + Order.class.getName())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(ValueTemplates.class);
				assertThat(context).hasBean("slipcaseValueTemplate");
			});
	}

	@Test
	void templatesKeepWorkingAfterTheContextIsStoppedAndStarted() {
		this.runner.run((context) -> {
			ValueTemplates templates = context.getBean(ValueTemplates.class);
			ValueTemplate<Order> orders = templates.forType(Order.class);
			Order order = new Order("7", Instant.parse("2026-11-21T10:15:30Z"), List.of("cup"), null);
			orders.set("order:7", order);
			// stopping shuts the connection factory's client down; starting makes a new one, as Spring's
			// test-context pausing and an application's stop/start do
			context.getSourceApplicationContext(ConfigurableApplicationContext.class).stop();
			context.getSourceApplicationContext(ConfigurableApplicationContext.class).start();
			assertThat(orders.get("order:7")).isEqualTo(order);
			orders.set("order:8", order);
			assertThat(this.redis.command("EXISTS", "order:8")).isEqualTo(1L);
		});
	}

	@Test
	void typedTemplatesRoundTripARecordAndShareOneTemplatePerType() {
		this.runner.run((context) -> {
			ValueTemplates templates = context.getBean(ValueTemplates.class);
			ValueTemplate<Order> orders = templates.forType(Order.class);
			Order order = new Order("42", Instant.parse("2026-11-21T10:15:30.123Z"), List.of("book", "pen"), null);
			orders.set("order:42", order);
			assertThat(orders.get("order:42")).isEqualTo(order);
			assertThat(templates.forType(Order.class)).isSameAs(orders);
			// JSON by default: readable as text
			assertThat((String) this.redis.command("GET", "order:42")).contains("\"placedAt\":\"2026-11-21T10:15:30.123Z\"");
		});
	}

	@Test
	void leasesComeFromTheFactory() {
		this.runner.run((context) -> {
			ValueTemplates templates = context.getBean(ValueTemplates.class);
			this.redis.command("SET", "report:7", "raw bytes");
			try (ValueLease lease = templates.lease("report:7")) {
				assertThat(lease).isNotNull();
				assertThat(lease.content().toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("raw bytes");
			}
			assertThat(templates.lease("missing")).isNull();
		});
	}

	@Test
	void typesPropertyMakesAnObjectTemplateThatRoundTripsARecord() {
		this.runner.withPropertyValues("slipcase.redis.template.types.order=" + Order.class.getName())
			.run((context) -> {
				assertThat(context).hasBean("slipcaseValueTemplate");
				@SuppressWarnings("unchecked")
				ValueTemplate<Object> template = context.getBean("slipcaseValueTemplate", ValueTemplate.class);
				Order order = new Order("7", Instant.parse("2026-01-01T00:00:00Z"), List.of(), "gift");
				template.set("any:7", order);
				assertThat(template.get("any:7")).isEqualTo(order);
				assertThat((String) this.redis.command("GET", "any:7")).contains("order");
			});
	}

	@Test
	void aTypeAllowlistBeanMakesTheObjectTemplateAndWinsOverTheProperty() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("o", Order.class).build();
		this.runner.withBean(TypeAllowlist.class, () -> allowlist)
			.withPropertyValues("slipcase.redis.template.types.order=" + Order.class.getName())
			.run((context) -> {
				@SuppressWarnings("unchecked")
				ValueTemplate<Object> template = context.getBean("slipcaseValueTemplate", ValueTemplate.class);
				template.set("any:1", new Order("1", Instant.EPOCH, List.of("x"), null));
				assertThat((String) this.redis.command("GET", "any:1")).contains("\"o\"").doesNotContain("\"order\"");
			});
	}

	@Test
	void unacknowledgedWritesFailByDefaultAndResendWhenConfigured() {
		this.runner.run((context) -> assertThat(context.getBean(ValueTemplates.class).unacknowledgedWrites())
			.isEqualTo(UnacknowledgedWrites.FAIL));
		this.runner.withPropertyValues("slipcase.redis.template.unacknowledged-writes=resend")
			.run((context) -> assertThat(context.getBean(ValueTemplates.class).unacknowledgedWrites())
				.isEqualTo(UnacknowledgedWrites.RESEND));
	}

	@Test
	void databaseAndCallerThreadDecodingComeFromProperties() {
		this.runner
			.withPropertyValues("slipcase.redis.template.database=3", "slipcase.redis.template.caller-thread-decoding-from=2KB")
			.run((context) -> {
				ValueTemplates templates = context.getBean(ValueTemplates.class);
				assertThat(templates.database()).isEqualTo(3);
				assertThat(templates.callerThreadDecodingFrom()).isEqualTo(2048);
				templates.forType(String.class).set("in-three", "three");
				assertThat(this.redis.command("EXISTS", "in-three")).isEqualTo(0L);
				assertThat(templates.forType(String.class).get("in-three")).isEqualTo("three");
			});
	}

	@Test
	void aNegativeDatabaseFailsStartUpWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.template.database=-1").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("slipcase.redis.template.database").contains("-1");
			assertThat(analysis.getAction()).contains("0 or more");
		});
	}

	@Test
	void anInvalidTypeIdFailsStartUpWithAnAnalysis() {
		this.runner.withPropertyValues("slipcase.redis.template.types[bad id]=" + Order.class.getName())
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("slipcase.redis.template.types.bad id");
				assertThat(analysis.getAction()).contains("letters, digits");
			});
	}

	@Test
	void usesTheFormatRouterAndAllocatorBeans() {
		FormatRouter router = FormatRouter.builder().register(Order.class, FormatKind.PROTOSTUFF).build();
		ByteBufAllocator allocator = BufferAllocators.defaultAllocator();
		this.runner.withBean(FormatRouter.class, () -> router)
			.withBean(ByteBufAllocator.class, () -> allocator)
			.run((context) -> {
				ValueTemplates templates = context.getBean(ValueTemplates.class);
				assertThat(templates.formatRouter()).isSameAs(router);
				Order order = new Order("9", Instant.parse("2026-02-03T04:05:06Z"), List.of("a"), null);
				templates.forType(Order.class).set("p:9", order);
				assertThat(templates.forType(Order.class).get("p:9")).isEqualTo(order);
				try (ValueLease lease = templates.lease("p:9")) {
					// Protostuff values carry the two-byte header, JSON values start with '{'
					assertThat(ByteBufUtil.getBytes(lease.content())[0]).isNotEqualTo((byte) '{');
				}
			});
	}

	@Test
	void customizersRunInOrderAfterTheProperties() {
		this.runner.withPropertyValues("slipcase.redis.template.database=1")
			.withUserConfiguration(Customizers.class)
			.run((context) -> assertThat(context.getBean(ValueTemplates.class).database()).isEqualTo(6));
	}

	@Test
	void transferChunkSizeAndWindowComeFromProperties() {
		this.runner.run((context) -> {
			assertThat(context.getBean(ValueTemplates.class).chunkSize()).isEqualTo(256 * 1024);
			assertThat(context.getBean(ValueTemplates.class).transferWindow()).isEqualTo(8);
		});
		this.runner
			.withPropertyValues("slipcase.redis.template.transfer.chunk-size=1MB",
					"slipcase.redis.template.transfer.window=4")
			.run((context) -> {
				ValueTemplates templates = context.getBean(ValueTemplates.class);
				assertThat(templates.chunkSize()).isEqualTo(1024 * 1024);
				assertThat(templates.transferWindow()).isEqualTo(4);
			});
	}

	@Test
	void aTransferWindowOrChunkSizeOfNothingFailsNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.template.transfer.window=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("slipcase.redis.template.transfer.window"));
		this.runner.withPropertyValues("slipcase.redis.template.transfer.chunk-size=0B")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("slipcase.redis.template.transfer.chunk-size"));
	}

	@Test
	void aNegativeCallerThreadDecodingSizeFailsNamingTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.template.caller-thread-decoding-from=-1B")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("slipcase.redis.template.caller-thread-decoding-from"));
	}

	@Test
	void withAnObservationRegistryTemplateCommandsAreObserved() {
		TestObservationRegistry observations = TestObservationRegistry.create();
		this.runner.withBean(ObservationRegistry.class, () -> observations).run((context) -> {
			context.getBean(ValueTemplates.class).forType(String.class).set("observed", "yes");
			TestObservationRegistryAssert.assertThat(observations)
				.hasObservationWithNameEqualTo("slipcase.redis.command")
				.that()
				.hasLowCardinalityKeyValue("slipcase.operation", "SET")
				.hasLowCardinalityKeyValue("slipcase.outcome", "success")
				.hasBeenStopped();
		});
	}

	@Test
	void withoutAnObservationRegistryNothingIsObserved() {
		this.runner.run((context) -> {
			ValueTemplates templates = context.getBean(ValueTemplates.class);
			assertThat(templates.forType(String.class)).extracting("settings.observations")
				.isSameAs(ObservationRegistry.NOOP);
		});
	}

	@Test
	void aCustomizerBeanIsApplied() {
		this.runner.withBean(ValueTemplateCustomizer.class, () -> (builder) -> builder.callerThreadDecodingFrom(0))
			.run((context) -> assertThat(context.getBean(ValueTemplates.class).callerThreadDecodingFrom()).isZero());
	}

	@Test
	void backsOffForAUserDefinedFactory() {
		this.runner.withUserConfiguration(UserTemplates.class).run((context) -> {
			assertThat(context).hasSingleBean(ValueTemplates.class);
			assertThat(context.getBean(ValueTemplates.class).database()).isEqualTo(9);
			assertThat(context).hasBean("userTemplates");
		});
	}

	@Test
	void backsOffForAUserDefinedObjectTemplateOfTheSameName() {
		this.runner.withPropertyValues("slipcase.redis.template.types.order=" + Order.class.getName())
			.withUserConfiguration(UserObjectTemplate.class)
			.run((context) -> assertThat(context.getBean("slipcaseValueTemplate")).isSameAs(UserObjectTemplate.TEMPLATE));
	}

	@Test
	void disabledByProperty() {
		this.runner.withPropertyValues("slipcase.redis.template.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ValueTemplates.class));
	}

	@Test
	void needsJackson() {
		this.runner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ValueTemplates.class));
	}

	@Test
	void needsLettuce() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ValueTemplates.class));
	}

	@Test
	void needsAConnectionFactory() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SlipcaseValueTemplateAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ValueTemplates.class));
	}

	@Test
	void closesItsConnectionsOnShutdown() {
		List<ValueTemplate<String>> strings = new java.util.ArrayList<>();
		this.runner.run((context) -> {
			strings.add(context.getBean(ValueTemplates.class).forType(String.class));
			strings.get(0).set("k", "v");
			assertThat(strings.get(0).get("k")).isEqualTo("v");
		});
		assertThatIllegalStateException().isThrownBy(() -> strings.get(0).get("k")).withMessageContaining("closed");
	}

	@Configuration(proxyBeanMethods = false)
	static class Customizers {

		@Bean
		@org.springframework.core.annotation.Order(2)
		ValueTemplateCustomizer second() {
			return (builder) -> builder.database(6);
		}

		@Bean
		@org.springframework.core.annotation.Order(1)
		ValueTemplateCustomizer first() {
			return (builder) -> builder.database(4);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTemplates {

		@Bean
		ValueTemplates userTemplates(LettuceConnectionFactory factory) {
			return ValueTemplates.builder(factory).database(9).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserObjectTemplate {

		static final Object TEMPLATE = new Object();

		@Bean
		Object slipcaseValueTemplate() {
			return TEMPLATE;
		}

	}

}
