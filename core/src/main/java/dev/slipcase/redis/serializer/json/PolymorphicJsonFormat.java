package dev.slipcase.redis.serializer.json;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SizeHint;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.NamedType;

import org.springframework.util.Assert;

/**
 * JSON for values of several types behind one serializer (a {@code RedisTemplate<String, Object>}),
 * each written with the short type id an explicit {@link TypeAllowlist} gives its type:
 * <pre>["order",{"id":42,...}]</pre>
 * No open default typing: the id is looked up in the allowlist, and a payload naming an id
 * outside it is refused before anything is read. The allowlisted types are also registered with
 * the mapper as named subtypes, so nested {@code @JsonTypeInfo(use = NAME)} properties of the
 * application's own types resolve against the same ids.
 * <p>
 * Reads what Spring Data's {@code GenericJacksonJsonRedisSerializer} wrote for an allowlisted
 * type ({@code {"@class":"com.example.Order",...}}), the class name being checked against the
 * allowlist. Stored without a header when uncompressed. Works on any {@link ByteBuf}; never
 * releases one. Immutable and thread-safe.
 */
public final class PolymorphicJsonFormat implements TaggedFormat<Object> {

	private final JsonMapper mapper;

	private final TypeAllowlist allowlist;

	private final Map<String, ObjectReader> readers;

	private final Map<String, JavaType> typesByClassName;

	private volatile @Nullable JsonMapper springTypedMapper;

	private final SizeHint sizeHint = new SizeHint();

	private PolymorphicJsonFormat(JsonMapper mapper, TypeAllowlist allowlist) {
		JsonMapper.Builder builder = mapper.rebuild();
		allowlist.types().forEach((id, type) -> builder.registerSubtypes(new NamedType(type.getRawClass(), id)));
		this.mapper = builder.build();
		this.allowlist = allowlist;
		this.readers = allowlist.types()
			.entrySet()
			.stream()
			.collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, (entry) -> this.mapper.readerFor(entry.getValue())
				.without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)));
		this.typesByClassName = allowlist.types()
			.values()
			.stream()
			.collect(Collectors.toUnmodifiableMap((type) -> type.getRawClass().getName(), (type) -> type,
					(first, second) -> first));
	}

	/** Polymorphic JSON for the allowlisted types, with Jackson 3's default mapper. */
	public static PolymorphicJsonFormat of(TypeAllowlist allowlist) {
		return of(JsonSupport.DEFAULT_MAPPER, allowlist);
	}

	/** Polymorphic JSON for the allowlisted types with the given mapper. */
	public static PolymorphicJsonFormat of(JsonMapper mapper, TypeAllowlist allowlist) {
		Assert.notNull(mapper, "mapper must not be null");
		Assert.notNull(allowlist, "allowlist must not be null");
		return new PolymorphicJsonFormat(mapper, allowlist);
	}

	/** The types this format writes and reads. */
	public TypeAllowlist allowlist() {
		return this.allowlist;
	}

	@Override
	public void encode(Object value, ByteBuf out) {
		String id = this.allowlist.requireIdOf(value, name());
		JavaType type = this.allowlist.typeOf(id);
		int start = out.writerIndex();
		try (JsonGenerator generator = this.mapper.createGenerator(JsonSupport.output(out))) {
			generator.writeStartArray();
			generator.writeString(id);
			this.mapper.writerFor(type).writeValue(generator, value);
			generator.writeEndArray();
		}
		catch (RuntimeException | Error ex) {
			throw FormatErrors.encodeFailure(name(), ex);
		}
		this.sizeHint.written(out.writerIndex() - start);
	}

	@Override
	public Object decode(ByteBuf in) {
		if (!in.isReadable()) {
			throw FormatErrors.error(name(), "empty value");
		}
		if (FormatHeader.isHeader(in.getByte(in.readerIndex()))) {
			throw FormatErrors.error(name(), "value starts with a Slipcase header byte, not JSON");
		}
		try {
			Object value = SpringJsonCompatibility.isSpringTyped(in) ? decodeSpringTyped(in) : decodeTagged(in);
			in.readerIndex(in.writerIndex());
			return value;
		}
		catch (RuntimeException | Error ex) {
			throw FormatErrors.decodeFailure(name(), ex);
		}
	}

	private Object decodeTagged(ByteBuf in) {
		return JsonSupport.parse(this.mapper, in, this::readTagged);
	}

	private Object readTagged(JsonParser parser) {
		if (parser.nextToken() != JsonToken.START_ARRAY || parser.nextToken() != JsonToken.VALUE_STRING) {
			throw FormatErrors.error(name(), "value is not a [\"type id\", value] pair");
		}
		String id = parser.getString();
		ObjectReader reader = this.readers.get(id);
		if (reader == null) {
			throw FormatErrors.error(name(), "type id '" + abbreviate(id) + "' is not in the allowlist "
					+ this.allowlist.types().keySet());
		}
		parser.nextToken();
		Object value = reader.readValue(parser);
		if (value == null) {
			throw FormatErrors.error(name(), "value of type id '" + id + "' is JSON null");
		}
		if (parser.nextToken() != JsonToken.END_ARRAY) {
			throw FormatErrors.error(name(), "more than one value after type id '" + id + "'");
		}
		if (parser.nextToken() != null) {
			throw FormatErrors.error(name(), "trailing data after the value");
		}
		return value;
	}

	private Object decodeSpringTyped(ByteBuf in) {
		String className;
		JsonToken first;
		try (JsonParser parser = JsonSupport.parser(this.mapper, in)) {
			first = parser.nextToken();
			if (first == JsonToken.START_OBJECT) {
				parser.nextToken();
			}
			parser.nextToken();
			className = parser.getString();
		}
		if (first == JsonToken.START_ARRAY && className != null && this.readers.containsKey(className)) {
			// a type id of ours with a dot in it (a nested class: "Shop.Order"), not a class name
			return decodeTagged(in);
		}
		JavaType type = (className != null) ? typeForClassName(className) : null;
		if (type == null) {
			throw FormatErrors.error(name(), "class '" + abbreviate(String.valueOf(className))
					+ "' in Spring Data typed JSON is not in the allowlist " + this.allowlist.types().keySet());
		}
		Object value = JsonSupport.read(springTypedMapper().readerFor(type), in);
		if (value == null) {
			throw FormatErrors.error(name(), "value is JSON null");
		}
		return value;
	}

	private @Nullable JavaType typeForClassName(String className) {
		JavaType type = this.typesByClassName.get(className);
		if (type != null || !SpringJsonCompatibility.isJdkValueType(className)) {
			return type;
		}
		try {
			Class<?> jdkClass = Class.forName(className, false, null);
			String id = this.allowlist.idOf(jdkClass);
			return (id != null) ? this.allowlist.typeOf(id) : null;
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	private JsonMapper springTypedMapper() {
		JsonMapper mapper = this.springTypedMapper;
		if (mapper == null) {
			Set<String> allowed = this.typesByClassName.keySet();
			mapper = SpringJsonCompatibility.mapper(this.mapper, allowed);
			this.springTypedMapper = mapper;
		}
		return mapper;
	}

	private static String abbreviate(String text) {
		return (text.length() > 80) ? text.substring(0, 80) + "..." : text;
	}

	@Override
	public int estimateSize(Object value) {
		return this.sizeHint.estimate();
	}

	@Override
	public int formatId() {
		return FormatHeader.POLYMORPHIC_JSON;
	}

	@Override
	public boolean isText() {
		return true;
	}

	@Override
	public String name() {
		return "polymorphic-json";
	}

}
