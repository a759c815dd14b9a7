package dev.slipcase.redis.template;

import java.util.List;

import dev.slipcase.redis.benchmark.Payload;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.template.RedisFixture.Writes;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The ways a user could SET and GET a value, by the name used in {@code @Param}: Slipcase's
 * {@link ValueTemplate} (JSON with its default adaptive decoding, JSON decoded on the event loop
 * only or on the caller's thread only, Fory), Spring Data's {@code RedisTemplate} as configured in practice (and with
 * Slipcase's typed JSON serializer, for a user who only swaps the serializer), and raw
 * Lettuce with Jackson. Each talks to the same local Redis over one shared connection.
 */
final class TemplateCandidates {

	static final List<String> NAMES = List.of("slipcase-json", "slipcase-json-event-loop-decode", "slipcase-json-caller-thread-decode", "slipcase-fory",
			"spring-slipcase-json", "spring-slipcase-fory", "spring-generic-json", "spring-jdk", "lettuce-bytes-jackson");

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private TemplateCandidates() {
	}

	/** Slipcase's typed JSON format for the payload, the same one its {@code RedisSerializer} uses. */
	@SuppressWarnings("unchecked")
	static ValueFormat<Object> slipcaseJson(Payload payload) {
		return (ValueFormat<Object>) (ValueFormat<?>) JsonFormat.of(payload.type());
	}

	/** Slipcase's Fory format for the payload behind its header, as {@code SlipcaseSerializers.fory} writes it. */
	@SuppressWarnings("unchecked")
	static ValueFormat<Object> slipcaseFory(Payload payload) {
		return (ValueFormat<Object>) (ValueFormat<?>) SelfDescribingFormat.of(ForyFormat.of(payload.type()));
	}

	static JavaType type(Payload payload) {
		return MAPPER.getTypeFactory().constructType(payload.type());
	}

	/** The candidate {@code name}, on a client or factory whose connections write as {@code writes} says. */
	static Candidate create(String name, Payload payload, RedisFixture redis, Writes writes) {
		RedisClient client = redis.client(writes);
		return switch (name) {
			case "slipcase-json" -> new SlipcaseCandidate(
					ValueTemplate.create(client, redis.uri(), slipcaseJson(payload)));
			case "slipcase-json-event-loop-decode" -> new SlipcaseCandidate(
					ValueTemplate.create(client, redis.uri(), slipcaseJson(payload))
						.withCallerThreadDecodingFrom(Integer.MAX_VALUE));
			case "slipcase-json-caller-thread-decode" -> new SlipcaseCandidate(
					ValueTemplate.create(client, redis.uri(), slipcaseJson(payload)).withCallerThreadDecoding());
			case "slipcase-fory" -> new SlipcaseCandidate(
					ValueTemplate.create(client, redis.uri(), slipcaseFory(payload)));
			case "spring-slipcase-fory" -> new SpringCandidate(redis.connectionFactory(0, writes),
					SlipcaseSerializers.fory(payload.type()));
			case "spring-slipcase-json" -> new SpringCandidate(redis.connectionFactory(0, writes),
					SlipcaseSerializers.json(payload.type()));
			case "spring-generic-json" -> new SpringCandidate(redis.connectionFactory(0, writes), RedisSerializer.json());
			case "spring-jdk" -> new SpringCandidate(redis.connectionFactory(0, writes), new JdkSerializationRedisSerializer());
			case "lettuce-bytes-jackson" -> new LettuceJacksonCandidate(
					client.connect(ByteArrayCodec.INSTANCE, redis.uri()), type(payload));
			default -> throw new IllegalArgumentException("Unknown candidate '" + name + "'; known: " + NAMES);
		};
	}

	/** SET then GET of one key, returning what GET read. */
	interface Candidate extends AutoCloseable {

		@Nullable Object setGet(String key, Object value);

		@Override
		void close();

	}

	private record SlipcaseCandidate(ValueTemplate<Object> template) implements Candidate {

		@Override
		public @Nullable Object setGet(String key, Object value) {
			this.template.set(key, value);
			return this.template.get(key);
		}

		@Override
		public void close() {
			this.template.close();
		}

	}

	private static final class SpringCandidate implements Candidate {

		private final LettuceConnectionFactory factory;

		private final RedisTemplate<String, Object> template = new RedisTemplate<>();

		SpringCandidate(LettuceConnectionFactory factory, RedisSerializer<?> values) {
			this.factory = factory;
			this.template.setConnectionFactory(factory);
			this.template.setKeySerializer(RedisSerializer.string());
			this.template.setValueSerializer(values);
			this.template.afterPropertiesSet();
		}

		@Override
		public @Nullable Object setGet(String key, Object value) {
			this.template.opsForValue().set(key, value);
			return this.template.opsForValue().get(key);
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

	private record LettuceJacksonCandidate(StatefulRedisConnection<byte[], byte[]> connection,
			JavaType type) implements Candidate {

		@Override
		public @Nullable Object setGet(String key, Object value) {
			RedisCommands<byte[], byte[]> sync = this.connection.sync();
			byte[] rawKey = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
			sync.set(rawKey, MAPPER.writeValueAsBytes(value));
			byte[] read = sync.get(rawKey);
			return (read != null) ? MAPPER.readValue(read, this.type) : null;
		}

		@Override
		public void close() {
			this.connection.close();
		}

	}

}
