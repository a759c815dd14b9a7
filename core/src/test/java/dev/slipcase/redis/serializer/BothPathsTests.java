package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Stream;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Page;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.compression.Compressors;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.json.PolymorphicJsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import dev.slipcase.redis.template.ValueLease;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every format of the family, through both paths against a real Redis: a value written by
 * {@code RedisTemplate} with the format's {@link SlipcaseRedisSerializer} is read by the
 * zero-copy {@link ValueTemplate} (through Lettuce's buffers, and through a lease), and a value
 * written by {@code ValueTemplate} is read by {@code RedisTemplate}. The two paths share one wire
 * format, so an application can mix them.
 */
@ExtendWith(RedisExtension.class)
class BothPathsTests {

	private static RedisServer redis;

	private static LettuceConnectionFactory connectionFactory;

	private static RedisClient client;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.endpoint().host(), server.endpoint().port()));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		client = RedisClient.create();
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
		client.shutdown();
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	static Stream<Arguments> formats() {
		TypeAllowlist allowlist = TypeAllowlist.builder().allow("order", Order.class).allow("session", Session.class)
			.build();
		return Stream.of(
				arguments("UTF-8 string", Utf8StringFormat.INSTANCE, "héllo wörld ✓ 🚀"),
				arguments("raw bytes", BytesFormat.INSTANCE, new byte[] { 0, 1, (byte) 0xFF, '\r', '\n' }),
				arguments("long", NumberFormat.LONG, -9_007_199_254_740_993L),
				arguments("integer", NumberFormat.INTEGER, 42),
				arguments("double", NumberFormat.DOUBLE, 3.25),
				arguments("big decimal", NumberFormat.BIG_DECIMAL, new BigDecimal("12345.678900")),
				arguments("typed JSON record", JsonFormat.of(Order.class), TestValues.order(1)),
				arguments("typed JSON record with nulls", JsonFormat.of(Order.class), TestValues.orderWithNulls(2)),
				arguments("typed JSON generic record", JsonFormat.of(new TypeReference<Page<Session>>() {
				}), new Page<>(List.of(TestValues.session(1), TestValues.session(2)), 3, null)),
				arguments("allowlisted polymorphic JSON", PolymorphicJsonFormat.of(allowlist), TestValues.session(4)),
				arguments("Protostuff record", SelfDescribingFormat.of(ProtostuffFormat.of(Order.class)),
						TestValues.order(5)),
				arguments("Fory record", SelfDescribingFormat.of(ForyFormat.of(Order.class)), TestValues.order(9)),
				arguments("Fory generic record", SelfDescribingFormat.of(ForyFormat.of(new TypeReference<Page<Session>>() {
				})), new Page<>(List.of(TestValues.session(1), TestValues.session(2)), 3, null)),
				arguments("Fory + Zstd", SelfDescribingFormat.builder(ForyFormat.of(Order.class))
					.compression(Compressors.zstd(), 0)
					.build(), TestValues.order(10)),
				arguments("JSON + Zstd", SelfDescribingFormat.builder(JsonFormat.of(Order.class))
					.compression(Compressors.zstd(), 0)
					.build(), TestValues.order(6)),
				arguments("Protostuff + LZ4", SelfDescribingFormat.builder(ProtostuffFormat.of(Order.class))
					.compression(Compressors.lz4(), 0)
					.build(), TestValues.order(7)),
				arguments("JSON + gzip", SelfDescribingFormat.builder(JsonFormat.of(Order.class))
					.compression(Compressors.gzip(), 0)
					.build(), TestValues.order(8)));
	}

	private static Arguments arguments(String name, ValueFormat<?> format, Object value) {
		return Arguments.of(name, format, value);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void writtenByRedisTemplateReadByValueTemplate(String name, ValueFormat<Object> format, Object value) {
		redisTemplate(format).opsForValue().set("k", value);
		try (ValueTemplate<Object> template = valueTemplate(format)) {
			assertThat(template.get("k")).isEqualTo(value);
			try (ValueLease lease = template.lease("k")) {
				assertThat(lease.decode(format)).isEqualTo(value);
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("formats")
	void writtenByValueTemplateReadByRedisTemplate(String name, ValueFormat<Object> format, Object value) {
		try (ValueTemplate<Object> template = valueTemplate(format)) {
			template.set("k", value);
		}
		assertThat(redisTemplate(format).opsForValue().get("k")).isEqualTo(value);
	}

	private static ValueTemplate<Object> valueTemplate(ValueFormat<Object> format) {
		return ValueTemplate.create(client, RedisURI.create(redis.endpoint().uri()), format);
	}

	private static RedisTemplate<String, Object> redisTemplate(ValueFormat<Object> format) {
		RedisTemplate<String, Object> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setKeySerializer(SlipcaseSerializers.string());
		template.setValueSerializer(SlipcaseRedisSerializer.of(format, null));
		template.afterPropertiesSet();
		return template;
	}

}
