package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.util.List;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.springdata.SlipcaseRedisTemplate;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Round trips through a real Redis with Spring Data's RedisTemplate and Lettuce. */
@ExtendWith(RedisExtension.class)
class RedisTemplateRoundTripTests {

	private static LettuceConnectionFactory connectionFactory;

	private static RedisServer redis;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(server.endpoint().host(),
				server.endpoint().port());
		if (server.endpoint().password() != null) {
			configuration.setPassword(server.endpoint().password());
		}
		connectionFactory = new LettuceConnectionFactory(configuration);
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	private static <V> RedisTemplate<String, V> template(RedisSerializer<V> values) {
		RedisTemplate<String, V> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setKeySerializer(SlipcaseSerializers.string());
		template.setValueSerializer(values);
		template.setHashKeySerializer(SlipcaseSerializers.string());
		template.setHashValueSerializer(values);
		template.afterPropertiesSet();
		return template;
	}

	@Test
	void jsonRecordsRoundTripAndAreReadableAsText() {
		RedisTemplate<String, Order> template = template(SlipcaseSerializers.json(Order.class));
		template.opsForValue().set("order:1", TestValues.order(1));
		assertThat(template.opsForValue().get("order:1")).isEqualTo(TestValues.order(1));
		assertThat((String) redis.command("GET", "order:1")).startsWith("{\"id\":1,");
	}

	@Test
	void protostuffRecordsRoundTrip() {
		RedisTemplate<String, Order> template = template(SlipcaseSerializers.protostuff(Order.class));
		template.opsForValue().set("order:2", TestValues.orderWithNulls(2));
		assertThat(template.opsForValue().get("order:2")).isEqualTo(TestValues.orderWithNulls(2));
	}

	@Test
	void genericListsRoundTripInProtostuff() {
		RedisTemplate<String, List<Session>> template = template(
				SlipcaseSerializers.protostuff(new TypeReference<List<Session>>() {
				}));
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		template.opsForValue().set("sessions", sessions);
		assertThat(template.opsForValue().get("sessions")).isEqualTo(sessions);
	}

	@Test
	void compressedValuesRoundTrip() {
		RedisTemplate<String, Order> template = template(
				SlipcaseSerializers.compressed(JsonFormat.of(Order.class), new DeflateCompressor(), 0));
		template.opsForValue().set("order:3", TestValues.order(3));
		assertThat(template.opsForValue().get("order:3")).isEqualTo(TestValues.order(3));
	}

	@Test
	void storedLongsKeepWorkingWithIncrBy() {
		RedisTemplate<String, Long> template = template(SlipcaseSerializers.longs());
		template.opsForValue().set("counter", 40L);
		assertThat(template.opsForValue().increment("counter", 2)).isEqualTo(42L);
		assertThat(template.opsForValue().get("counter")).isEqualTo(42L);
	}

	@Test
	void storedDecimalsKeepWorkingWithIncrByFloat() {
		RedisTemplate<String, BigDecimal> template = template(SlipcaseSerializers.decimals());
		template.opsForValue().set("price", new BigDecimal("10.25"));
		template.opsForValue().increment("price", 0.5);
		assertThat(template.opsForValue().get("price")).isEqualByComparingTo("10.75");
	}

	@Test
	void storedHashFieldsKeepWorkingWithHIncrBy() {
		RedisTemplate<String, Integer> template = template(SlipcaseSerializers.integers());
		template.opsForHash().put("stats", "views", 9);
		template.opsForHash().increment("stats", "views", 1);
		assertThat(template.<String, Integer>opsForHash().get("stats", "views")).isEqualTo(10);
	}

	@Test
	void readsWhatStockStringRedisSerializerStored() {
		RedisTemplate<String, String> stock = template(StringRedisSerializer.UTF_8);
		stock.opsForValue().set("greeting", "grüße 😀");
		assertThat(template(SlipcaseSerializers.string()).opsForValue().get("greeting")).isEqualTo("grüße 😀");
	}

	@Test
	void readsWhatStockJacksonJsonRedisSerializerStored() {
		RedisTemplate<String, Order> stock = template(new JacksonJsonRedisSerializer<>(Order.class));
		stock.opsForValue().set("order:4", TestValues.order(4));
		assertThat(template(SlipcaseSerializers.json(Order.class)).opsForValue().get("order:4"))
			.isEqualTo(TestValues.order(4));
	}

	@Test
	@SuppressWarnings("unchecked")
	void readsWhatStockGenericJacksonJsonRedisSerializerStored() {
		RedisTemplate<String, Object> stock = template(RedisSerializer.json());
		stock.opsForValue().set("order:5", TestValues.order(5));
		stock.opsForValue().set("sessions", new java.util.ArrayList<>(List.of(TestValues.session(1))));
		assertThat(template(SlipcaseSerializers.json(Order.class)).opsForValue().get("order:5"))
			.isEqualTo(TestValues.order(5));
		assertThat(template(SlipcaseSerializers.json(new TypeReference<List<Session>>() {
		})).opsForValue().get("sessions")).containsExactly(TestValues.session(1));
		RedisTemplate<String, Object> polymorphic = template(SlipcaseSerializers
			.json(TypeAllowlist.builder().allow("order", Order.class).allow("session", Session.class).build()));
		assertThat(polymorphic.opsForValue().get("order:5")).isEqualTo(TestValues.order(5));
	}

	@Test
	void aTypesFormatEvolvesWithoutAFlagDay() {
		FormatRouter json = FormatRouter.builder().register(Order.class, FormatKind.JSON).build();
		FormatRouter protostuffZipped = FormatRouter.builder()
			.register(Order.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, "deflate", 0))
			.compressors(new DeflateCompressor())
			.build();
		template(json.serializer(Order.class)).opsForValue().set("order:old", TestValues.order(6));
		RedisTemplate<String, Order> now = template(protostuffZipped.serializer(Order.class));
		now.opsForValue().set("order:new", TestValues.order(7));
		assertThat(now.opsForValue().get("order:old")).isEqualTo(TestValues.order(6));
		assertThat(now.opsForValue().get("order:new")).isEqualTo(TestValues.order(7));
		RedisTemplate<String, byte[]> raw = template(SlipcaseSerializers.bytes());
		assertThat(raw.opsForValue().get("order:old")[0]).isEqualTo((byte) '{');
		byte[] header = java.util.Arrays.copyOf(raw.opsForValue().get("order:new"), 2);
		assertThat(header).containsExactly((byte) (FormatHeader.MARKER | 7), (byte) FormatHeader.PROTOSTUFF);
	}

	@Test
	void mixedTypesShareOneTemplateEachInItsOwnFormat() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("order", Order.class).allow("session", Session.class).build();
		RedisTemplate<String, Object> template = template(FormatRouter.builder()
			.register(Order.class, new FormatRouter.Choice(FormatKind.PROTOSTUFF, "deflate", 0))
			.compressors(new DeflateCompressor())
			.build()
			.serializer(allowlist));
		template.opsForValue().set("order", TestValues.order(8));
		template.opsForValue().set("session", TestValues.session(8));
		assertThat(template.opsForValue().get("order")).isEqualTo(TestValues.order(8));
		assertThat(template.opsForValue().get("session")).isEqualTo(TestValues.session(8));
		assertThat((String) redis.command("GET", "session")).startsWith("[\"session\",{");
	}

	@Test
	void slipcasesTemplateNamesTheKeyInRedisFailuresKeepingTheirClassAndCause() {
		SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder().allow("order", Order.class).build();
		SlipcaseRedisTemplate<String, Object> template = SlipcaseRedisTemplate.create(connectionFactory, family);
		redis.command("HSET", "a-hash", "field", "value");
		assertThatExceptionOfType(RedisSystemException.class).isThrownBy(() -> template.opsForValue().get("a-hash"))
			.withMessageStartingWith("key 'a-hash': ")
			.withMessageContaining("WRONGTYPE")
			.withCauseInstanceOf(RedisCommandExecutionException.class);
		template.opsForValue().increment("count", 2);
		assertThat(template.opsForValue().get("count")).isEqualTo(2L);
	}

}
