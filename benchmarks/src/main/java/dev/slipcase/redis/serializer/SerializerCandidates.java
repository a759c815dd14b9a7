package dev.slipcase.redis.serializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import dev.slipcase.redis.benchmark.Payload;
import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.compression.Compressors;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;
import org.redisson.client.codec.Codec;
import org.redisson.codec.ForyCodec;
import org.redisson.codec.Kryo5Codec;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The serializers a benchmark compares, by the name used in {@code @Param}: Spring Data's, as a
 * user would configure them, and Slipcase's.
 */
final class SerializerCandidates {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Map<String, Function<Payload, RedisSerializer<Object>>> CANDIDATES = new TreeMap<>();

	static {
		// Spring Data's one-liner: GenericJacksonJsonRedisSerializer with its default type information
		CANDIDATES.put("spring-generic-json", (payload) -> RedisSerializer.json());
		CANDIDATES.put("spring-typed-json", SerializerCandidates::springTypedJson);
		// Boot's default for RedisTemplate<Object, Object>
		CANDIDATES.put("spring-jdk", (payload) -> new JdkSerializationRedisSerializer());
		// Slipcase: typed JSON (no class names) and record-aware Protostuff, through pooled scratch buffers
		CANDIDATES.put("slipcase-json", SerializerCandidates::slipcaseJson);
		CANDIDATES.put("slipcase-protostuff", SerializerCandidates::slipcaseProtostuff);
		// the same, compressed above 128 bytes: the "big lists in Protostuff + Zstd" case, and JSON + LZ4
		CANDIDATES.put("slipcase-protostuff-zstd",
				(payload) -> compressed(ProtostuffFormat.of(payload.type()), Compressors.zstd()));
		CANDIDATES.put("slipcase-json-lz4", (payload) -> compressed(JsonFormat.of(payload.type()), Compressors.lz4()));
		// Apache Fory: Slipcase's (registration required, compatible schema) beside Redisson's codecs
		CANDIDATES.put("slipcase-fory", SerializerCandidates::slipcaseFory);
		CANDIDATES.put("slipcase-fory-lz4", (payload) -> compressed(ForyFormat.of(payload.type()), Compressors.lz4()));
		CANDIDATES.put("redisson-kryo5", (payload) -> new RedissonCodecSerializer(new Kryo5Codec()));
		CANDIDATES.put("redisson-fory", (payload) -> new RedissonCodecSerializer(new ForyCodec()));
	}

	private SerializerCandidates() {
	}

	static RedisSerializer<Object> create(String name, Payload payload) {
		Function<Payload, RedisSerializer<Object>> factory = CANDIDATES.get(name);
		if (factory == null) {
			throw new IllegalArgumentException("Unknown serializer '" + name + "'; known: " + CANDIDATES.keySet());
		}
		return factory.apply(payload);
	}

	/** The names of every candidate. */
	static Set<String> names() {
		return CANDIDATES.keySet();
	}

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> slipcaseJson(Payload payload) {
		return (RedisSerializer<Object>) (RedisSerializer<?>) SlipcaseSerializers.json(payload.type());
	}

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> slipcaseProtostuff(Payload payload) {
		return (RedisSerializer<Object>) (RedisSerializer<?>) SlipcaseSerializers.protostuff(payload.type());
	}

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> slipcaseFory(Payload payload) {
		return (RedisSerializer<Object>) (RedisSerializer<?>) SlipcaseSerializers.fory(payload.type());
	}

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> compressed(TaggedFormat<?> format, Compressor compressor) {
		return (RedisSerializer<Object>) (RedisSerializer<?>) SlipcaseSerializers.compressed(format, compressor,
				SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE);
	}

	/**
	 * A Redisson codec as a {@code RedisSerializer}: its encoder's pooled buffer copied to the
	 * {@code byte[]} the contract asks for and released, its decoder reading a wrapped array.
	 */
	private record RedissonCodecSerializer(Codec codec) implements RedisSerializer<Object> {

		@Override
		public byte[] serialize(@Nullable Object value) {
			try {
				ByteBuf encoded = this.codec.getValueEncoder().encode(value);
				try {
					return ByteBufUtil.getBytes(encoded);
				}
				finally {
					encoded.release();
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public @Nullable Object deserialize(byte @Nullable [] bytes) {
			try {
				return this.codec.getValueDecoder().decode(Unpooled.wrappedBuffer(bytes), null);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	@SuppressWarnings("unchecked")
	private static RedisSerializer<Object> springTypedJson(Payload payload) {
		JavaType type = MAPPER.getTypeFactory().constructType(payload.type());
		return (RedisSerializer<Object>) (RedisSerializer<?>) new JacksonJsonRedisSerializer<>(MAPPER, type);
	}

}
