package dev.slipcase.redis.autoconfigure.endpoint;

import dev.slipcase.redis.autoconfigure.endpoint.SlipcaseEndpoint.SlipcaseDescriptor;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SlipcaseEndpointAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SlipcaseEndpointAutoConfiguration.class));

	private final ApplicationContextRunner exposed = this.runner
		.withPropertyValues("management.endpoints.web.exposure.include=slipcase");

	@Test
	void endpointIsDefinedWhenExposed() {
		this.exposed.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(SlipcaseEndpoint.class));
	}

	@Test
	void endpointIsNotDefinedWhenNotExposed() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SlipcaseEndpoint.class));
	}

	@Test
	void endpointIsNotDefinedWhenItsAccessIsNone() {
		this.exposed.withPropertyValues("management.endpoint.slipcase.access=NONE")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SlipcaseEndpoint.class));
	}

	@Test
	void endpointIsNotDefinedWithoutActuator() {
		this.exposed.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SlipcaseEndpoint.class));
	}

	@Test
	void userDefinedEndpointWins() {
		this.exposed.withBean("mine", SlipcaseEndpoint.class,
				() -> new SlipcaseEndpoint(new org.springframework.beans.factory.support.DefaultListableBeanFactory(),
						new MockEnvironment(), 1))
			.run((context) -> assertThat(context).hasSingleBean(SlipcaseEndpoint.class).hasBean("mine"));
	}

	@Test
	void reportBucketsComeFromProperties() {
		this.exposed.withPropertyValues("slipcase.redis.metrics.report-buckets=7")
			.run((context) -> assertThat(context.getBean(SlipcaseEndpoint.class)).hasToString("SlipcaseEndpoint[reportBuckets=7]"));
	}

	@Test
	void reportBucketsBelowOneFailStartUp() {
		this.exposed.withPropertyValues("slipcase.redis.metrics.report-buckets=0")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void everySlipcasePropertyIsShownWithTheValueThatWins() {
		this.exposed
			.withPropertyValues("slipcase.redis.default-format=protostuff", "slipcase.redis.sharded.users.key-prefix=user:",
					"slipcase.redis.compression.min-size=${min.size}", "min.size=256", "spring.data.redis.port=6390")
			.run((context) -> {
				SlipcaseDescriptor descriptor = context.getBean(SlipcaseEndpoint.class).slipcase();
				assertThat(descriptor.properties()).containsEntry("slipcase.redis.default-format", "protostuff")
					.containsEntry("slipcase.redis.sharded.users.key-prefix", "user:")
					.containsEntry("slipcase.redis.compression.min-size", "256")
					.doesNotContainKey("spring.data.redis.port");
			});
	}

	@Test
	void slipcaseSerializerAndTemplateBeansAreDescribed() {
		this.exposed.withBean("orderSerializer", RedisSerializer.class, () -> SlipcaseSerializers.longs())
			.withBean("plainSerializer", RedisSerializer.class, () -> StringRedisSerializer.UTF_8)
			.withBean("ordersTemplate", RedisTemplate.class, () -> {
				RedisTemplate<String, Long> template = new RedisTemplate<>();
				template.setConnectionFactory(new LettuceConnectionFactory());
				template.setKeySerializer(StringRedisSerializer.UTF_8);
				template.setValueSerializer(SlipcaseSerializers.longs());
				return template;
			})
			.run((context) -> {
				SlipcaseDescriptor descriptor = context.getBean(SlipcaseEndpoint.class).slipcase();
				assertThat(descriptor.serializers()).containsOnlyKeys("orderSerializer");
				assertThat(descriptor.serializers().get("orderSerializer").format()).isEqualTo("number-long");
				assertThat(descriptor.serializers().get("orderSerializer").targetType()).isEqualTo("java.lang.Long");
				assertThat(descriptor.redisTemplates().get("ordersTemplate").value())
					.isEqualTo("SlipcaseRedisSerializer[number-long]");
				assertThat(descriptor.redisTemplates().get("ordersTemplate").key())
					.isEqualTo(StringRedisSerializer.class.getName());
				assertThat(descriptor.sharded()).isEmpty();
			});
	}

	@Test
	void unknownNamespaceHasNoReport() {
		this.exposed.run((context) -> assertThat(context.getBean(SlipcaseEndpoint.class).namespace("nope")).isNull());
	}

	@Test
	void overHttpAnUnknownNamespaceIsA404ProblemNamingTheNamespaces() {
		this.exposed.run((context) -> {
			WebEndpointResponse<Object> response = context.getBean(SlipcaseEndpointWebExtension.class).namespace("nope");
			assertThat(response.getStatus()).isEqualTo(404);
			assertThat(response.getContentType()).hasToString("application/problem+json");
			assertThat(response.getBody()).asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("status", 404)
				.containsEntry("detail", "No sharded namespace 'nope'; this application declares none");
		});
	}

	@Test
	void endpointRefusesBucketsBelowOne() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SlipcaseEndpoint(new org.springframework.beans.factory.support.DefaultListableBeanFactory(),
					new MockEnvironment(), 0))
			.withMessageContaining("reportBuckets");
	}

}
