package dev.slipcase.redis.serializer;

import java.math.BigDecimal;

import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.json.JsonSupport;
import dev.slipcase.redis.serializer.json.PolymorphicJsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Static factories of Slipcase's {@code RedisSerializer}s, ready for {@code RedisTemplate},
 * {@code RedisCacheConfiguration} or Spring Session:
 * <pre class="code">
 * template.setValueSerializer(SlipcaseSerializers.json(Order.class));
 * </pre>
 * Every serializer encodes through a pooled scratch buffer from Netty's default allocator
 * ({@link SlipcaseRedisSerializer#withAllocator} to choose another) and follows Spring Data's
 * null contract. Text values (strings, JSON, numbers) are stored with no header and stay
 * readable in {@code redis-cli}; Protostuff and compressed values carry the two-byte
 * {@link FormatHeader}.
 * <p>
 * Each factory reads only its own format (and, for JSON, Spring Data's). To change a type's
 * format or compression without a flag day, use a {@link FormatRouter}, whose serializers write
 * the chosen format and read all of them.
 */
public final class SlipcaseSerializers {

	private static final SlipcaseRedisSerializer<String> STRING = SlipcaseRedisSerializer
		.of(Utf8StringFormat.INSTANCE, String.class)
		.withEmptyValue("");

	private static final SlipcaseRedisSerializer<byte[]> BYTES = SlipcaseRedisSerializer
		.of(BytesFormat.INSTANCE, byte[].class)
		.withEmptyValue(new byte[0]);

	private SlipcaseSerializers() {
	}

	/** UTF-8 strings, byte for byte what {@code StringRedisSerializer} stores. */
	public static SlipcaseRedisSerializer<String> string() {
		return STRING;
	}

	/** Raw bytes, passed through unchanged. */
	public static SlipcaseRedisSerializer<byte[]> bytes() {
		return BYTES;
	}

	/** {@code Long}s as decimal text, usable with {@code INCR}/{@code INCRBY}. */
	public static SlipcaseRedisSerializer<Long> longs() {
		return SlipcaseRedisSerializer.of(NumberFormat.LONG, Long.class);
	}

	/** {@code Integer}s as decimal text, usable with {@code INCR}/{@code INCRBY}. */
	public static SlipcaseRedisSerializer<Integer> integers() {
		return SlipcaseRedisSerializer.of(NumberFormat.INTEGER, Integer.class);
	}

	/** {@code Double}s as decimal text, usable with {@code INCRBYFLOAT}. */
	public static SlipcaseRedisSerializer<Double> doubles() {
		return SlipcaseRedisSerializer.of(NumberFormat.DOUBLE, Double.class);
	}

	/** {@code BigDecimal}s as plain decimal text, usable with {@code INCRBYFLOAT}. */
	public static SlipcaseRedisSerializer<BigDecimal> decimals() {
		return SlipcaseRedisSerializer.of(NumberFormat.BIG_DECIMAL, BigDecimal.class);
	}

	/** JSON typed by {@code type}, no class names stored; reads Spring Data's JSON too. */
	public static <T> SlipcaseRedisSerializer<T> json(Class<T> type) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(JsonFormat.of(type)), type);
	}

	/** JSON typed by the generic {@code type}, no class names stored. */
	public static <T> SlipcaseRedisSerializer<T> json(TypeReference<T> type) {
		JsonFormat<T> format = JsonFormat.of(type);
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(format), format.type().getRawClass());
	}

	/** JSON typed by {@code type}, written and read with {@code mapper}. */
	public static <T> SlipcaseRedisSerializer<T> json(JsonMapper mapper, Class<T> type) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(JsonFormat.of(mapper, type)), type);
	}

	/**
	 * JSON for the allowlisted types behind one serializer, each value tagged with its type's
	 * short id; reads what {@code GenericJacksonJsonRedisSerializer} wrote for allowlisted types.
	 */
	public static SlipcaseRedisSerializer<Object> json(TypeAllowlist allowlist) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(PolymorphicJsonFormat.of(allowlist)), Object.class);
	}

	/** Protostuff for {@code type} (records included), behind a header. */
	public static <T> SlipcaseRedisSerializer<T> protostuff(Class<T> type) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(ProtostuffFormat.of(type)), type);
	}

	/** Protostuff for the generic {@code type}, such as {@code List<Order>}, behind a header. */
	public static <T> SlipcaseRedisSerializer<T> protostuff(TypeReference<T> type) {
		Class<?> raw = JsonSupport.DEFAULT_MAPPER.constructType(type).getRawClass();
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(ProtostuffFormat.of(type)), raw);
	}

	/** Apache Fory for {@code type} (records included), behind a header; see {@link ForyFormat}. */
	public static <T> SlipcaseRedisSerializer<T> fory(Class<T> type) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(ForyFormat.of(type)), type);
	}

	/** Apache Fory for the generic {@code type}, such as {@code List<Order>}, behind a header. */
	public static <T> SlipcaseRedisSerializer<T> fory(TypeReference<T> type) {
		Class<?> raw = JsonSupport.DEFAULT_MAPPER.constructType(type).getRawClass();
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.of(ForyFormat.of(type)), raw);
	}

	/**
	 * {@code format}, compressed with {@code compressor} when the encoded value is at least
	 * {@code minSize} bytes; reads compressed and uncompressed values alike.
	 */
	public static <T> SlipcaseRedisSerializer<T> compressed(TaggedFormat<T> format, Compressor compressor,
			int minSize) {
		return SlipcaseRedisSerializer.of(SelfDescribingFormat.builder(format).compression(compressor, minSize).build(),
				null);
	}

	/** A serializer over any format, such as a configured {@link SelfDescribingFormat}. */
	public static <T> SlipcaseRedisSerializer<T> of(ValueFormat<T> format, Class<?> targetType) {
		return SlipcaseRedisSerializer.of(format, targetType);
	}

}
