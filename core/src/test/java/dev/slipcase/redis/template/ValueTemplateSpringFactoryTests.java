package dev.slipcase.redis.template;

import java.util.List;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisEndpoint;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ValueTemplate#create(LettuceConnectionFactory, dev.slipcase.redis.serializer.format.ValueFormat)}:
 * the template uses the factory's own native client and settings (here its database), standalone
 * and cluster, next to Spring's own template.
 */
@ExtendWith(RedisExtension.class)
class ValueTemplateSpringFactoryTests {

	@Test
	void usesTheFactorysDatabaseAndSharesTheWireFormatWithSpringsTemplate(RedisServer redis) {
		redis.flushAll();
		RedisEndpoint endpoint = redis.endpoint();
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
		configuration.setDatabase(2);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		try (ValueTemplate<String> template = ValueTemplate.create(factory, Utf8TestFormat.INSTANCE)) {
			StringRedisTemplate spring = new StringRedisTemplate(factory);
			template.set("k", "from slipcase");
			assertThat(template.database()).isEqualTo(2);
			assertThat(spring.opsForValue().get("k")).isEqualTo("from slipcase");
			spring.opsForValue().set("s", "from spring");
			assertThat(template.get("s")).isEqualTo("from spring");
			ValueTemplate<String> five = template.forDatabase(5);
			five.set("k", "in five");
			assertThat(five.get("k")).isEqualTo("in five");
			assertThat(template.get("k")).isEqualTo("from slipcase");
			assertThat(template.forDatabase(0).get("k")).isNull();
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void aClusterFactoryGivesAClusterTemplate(RedisCluster cluster) {
		cluster.flushAll();
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				cluster.endpoints().stream().map(RedisEndpoint::toString).toList());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		try (ValueTemplate<String> template = ValueTemplate.create(factory, Utf8TestFormat.INSTANCE)) {
			List<String> keys = List.of("a", "b", "c", "d", "e", "f");
			keys.forEach((key) -> template.set(key, key.toUpperCase()));
			assertThat(template.mget(keys)).containsExactly("A", "B", "C", "D", "E", "F");
			assertThat(new StringRedisTemplate(factory).opsForValue().get("d")).isEqualTo("D");
		}
		finally {
			factory.destroy();
		}
	}

}
