package dev.slipcase.redis.autoconfigure;

import java.nio.ByteBuffer;
import java.time.Duration;

import dev.slipcase.redis.autoconfigure.fixtures.Order;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import dev.slipcase.redis.springdata.SlipcaseReactiveRedisTemplate;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link SlipcaseReactiveRedisConfiguration}: the {@code slipcaseReactiveRedisTemplate}
 * beside Boot's untouched {@code reactiveRedisTemplate}, each condition, and values that the
 * blocking and reactive templates share, against a real Redis.
 */
class SlipcaseReactiveRedisConfigurationTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final RedisServer redis = RedisServers.shared();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				DataRedisReactiveAutoConfiguration.class, SlipcaseRedisAutoConfiguration.class))
		.withPropertyValues(RedisProperties.of(this.redis))
		.withPropertyValues("slipcase.redis.types.order.type=" + Order.class.getName());

	@BeforeEach
	void flush() {
		this.redis.flushAll();
	}

	@Test
	void givesASlipcaseReactiveTemplateWithTheFamilysSerializers() {
		this.runner.run((context) -> {
			ReactiveRedisTemplate<?, ?> template = context.getBean("slipcaseReactiveRedisTemplate",
					ReactiveRedisTemplate.class);
			assertThat(template).isInstanceOf(SlipcaseReactiveRedisTemplate.class);
			assertThat(template.getConnectionFactory()).isSameAs(context.getBean(ReactiveRedisConnectionFactory.class));
			SlipcaseSerializerFamily family = context.getBean(SlipcaseSerializerFamily.class);
			RedisSerializationContext.SerializationPair<?> values = template.getSerializationContext()
				.getValueSerializationPair();
			Order order = Order.sample(7, null);
			assertThat(values.getReader().read(ByteBuffer.wrap(family.valueSerializer().serialize(order))))
				.isEqualTo(order);
		});
	}

	@Test
	void bootsReactiveTemplateIsLeftAsBootMadeIt() {
		this.runner.run((context) -> {
			ReactiveRedisTemplate<?, ?> template = context.getBean("reactiveRedisTemplate", ReactiveRedisTemplate.class);
			assertThat(template).isNotInstanceOf(SlipcaseReactiveRedisTemplate.class);
			@SuppressWarnings("unchecked")
			RedisSerializationContext.SerializationPair<Object> values = (RedisSerializationContext.SerializationPair<Object>) template
				.getSerializationContext()
				.getValueSerializationPair();
			ByteBuffer written = values.write("text");
			// JDK serialization's stream magic, 0xACED
			assertThat(new byte[] { written.get(0), written.get(1) }).containsExactly((byte) 0xAC, (byte) 0xED);
		});
	}

	@Test
	void backsOffForAnApplicationsBeanOfTheSameName() {
		this.runner.withUserConfiguration(OwnTemplate.class)
			.run((context) -> assertThat(context.getBean("slipcaseReactiveRedisTemplate"))
				.isSameAs(context.getBean(OwnTemplate.class).template));
	}

	@Test
	void isAbsentWithoutReactor() {
		this.runner.withClassLoader(new FilteredClassLoader(Flux.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("slipcaseReactiveRedisTemplate"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void theBlockingAndReactiveTemplatesReadEachOthersValues() {
		this.runner.run((context) -> {
			ReactiveRedisTemplate<String, Object> reactive = context.getBean("slipcaseReactiveRedisTemplate",
					ReactiveRedisTemplate.class);
			RedisTemplate<String, Object> blocking = context.getBean("slipcaseRedisTemplate", RedisTemplate.class);
			Order written = Order.sample(1, null);
			assertThat(reactive.opsForValue().set("order:1", written).block(WAIT)).isTrue();
			assertThat(blocking.opsForValue().get("order:1")).isEqualTo(written);
			Order other = Order.sample(2, null);
			blocking.opsForValue().set("order:2", other);
			assertThat(reactive.opsForValue().get("order:2").block(WAIT)).isEqualTo(other);
			assertThat(this.redis.command("GET", "order:1").toString()).startsWith("[\"order\",{\"id\":1");
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void aValueThatCannotBeReadFailsTheMonoWithAnExceptionNamingTheKey() {
		this.runner.run((context) -> {
			ReactiveRedisTemplate<String, Object> reactive = context.getBean("slipcaseReactiveRedisTemplate",
					ReactiveRedisTemplate.class);
			this.redis.command("SET", "order:bad", "[\"order\",{\"id\":");
			assertThatExceptionOfType(KeyedSerializationException.class)
				.isThrownBy(() -> reactive.opsForValue().get("order:bad").block(WAIT))
				.withMessageStartingWith("key 'order:bad': ");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnTemplate {

		final ReactiveRedisTemplate<String, String> template;

		OwnTemplate(ReactiveRedisConnectionFactory connectionFactory) {
			this.template = new ReactiveRedisTemplate<>(connectionFactory, RedisSerializationContext.string());
		}

		@Bean
		ReactiveRedisTemplate<String, String> slipcaseReactiveRedisTemplate() {
			return this.template;
		}

	}

}
