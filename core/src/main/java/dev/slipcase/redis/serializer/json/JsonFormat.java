package dev.slipcase.redis.serializer.json;

import java.util.Set;

import dev.slipcase.redis.serializer.format.FormatErrors;
import dev.slipcase.redis.serializer.format.FormatHeader;
import dev.slipcase.redis.serializer.format.SizeHint;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * JSON on Jackson 3, typed by a {@code Class}, {@link TypeReference} or {@link JavaType}: records,
 * generics, {@code java.time} (as ISO-8601 strings), {@code Optional} and collections, with no
 * class names in the payload. Stored without a header when uncompressed, so values stay readable
 * in {@code redis-cli}.
 * <p>
 * Reads what Spring Data's {@code JacksonJsonRedisSerializer} wrote (plain JSON), and what its
 * {@code GenericJacksonJsonRedisSerializer} wrote ({@code "@class"} properties and type wrappers):
 * such values are recognised by their first bytes and read with type ids checked against a closed
 * allowlist (the declared type, its own package's subtypes, JDK value and collection types),
 * never by loading whatever class the payload names.
 * <p>
 * Writes into and reads from any {@link ByteBuf}, heap or direct, without copying it; never
 * releases one. Immutable and thread-safe.
 *
 * @param <T> the type of value
 */
public final class JsonFormat<T> implements TaggedFormat<T> {

	private final JsonMapper mapper;

	private final JavaType type;

	private final ObjectReader reader;

	private final ObjectWriter writer;

	private volatile @Nullable ObjectReader springTypedReader;

	private final SizeHint sizeHint = new SizeHint();

	private JsonFormat(JsonMapper mapper, JavaType type) {
		this.mapper = mapper;
		this.type = type;
		this.reader = mapper.readerFor(type);
		this.writer = mapper.writerFor(type);
	}

	/** JSON for values of {@code type}, with Jackson 3's default mapper. */
	public static <T> JsonFormat<T> of(Class<T> type) {
		return of(JsonSupport.DEFAULT_MAPPER, type);
	}

	/** JSON for values of the generic {@code type}, with Jackson 3's default mapper. */
	public static <T> JsonFormat<T> of(TypeReference<T> type) {
		return of(JsonSupport.DEFAULT_MAPPER, type);
	}

	/** JSON for values of {@code type} with the given mapper. */
	public static <T> JsonFormat<T> of(JsonMapper mapper, Class<T> type) {
		Assert.notNull(mapper, "mapper must not be null");
		Assert.notNull(type, "type must not be null");
		return new JsonFormat<>(mapper, mapper.constructType(type));
	}

	/** JSON for values of the generic {@code type} with the given mapper. */
	public static <T> JsonFormat<T> of(JsonMapper mapper, TypeReference<T> type) {
		Assert.notNull(mapper, "mapper must not be null");
		Assert.notNull(type, "type must not be null");
		return new JsonFormat<>(mapper, mapper.constructType(type));
	}

	/**
	 * JSON for values of {@code type} with the given mapper; the caller vouches that {@code T}
	 * matches {@code type}.
	 */
	public static <T> JsonFormat<T> of(JsonMapper mapper, JavaType type) {
		Assert.notNull(mapper, "mapper must not be null");
		Assert.notNull(type, "type must not be null");
		return new JsonFormat<>(mapper, type);
	}

	/** The type values are read as. */
	public JavaType type() {
		return this.type;
	}

	@Override
	public void encode(T value, ByteBuf out) {
		int start = out.writerIndex();
		try {
			this.writer.writeValue(JsonSupport.output(out), value);
		}
		catch (RuntimeException | Error ex) {
			throw FormatErrors.encodeFailure(name(), ex);
		}
		this.sizeHint.written(out.writerIndex() - start);
	}

	@Override
	public T decode(ByteBuf in) {
		if (!in.isReadable()) {
			throw FormatErrors.error(name(), "empty value");
		}
		if (FormatHeader.isHeader(in.getByte(in.readerIndex()))) {
			throw FormatErrors.error(name(), "value starts with a Slipcase header byte, not JSON");
		}
		try {
			ObjectReader reader = SpringJsonCompatibility.isSpringTyped(in) ? springTypedReader() : this.reader;
			T value = JsonSupport.read(reader, in);
			if (value == null) {
				throw FormatErrors.error(name(), "value is JSON null where a " + this.type + " was expected");
			}
			return value;
		}
		catch (RuntimeException | Error ex) {
			throw FormatErrors.decodeFailure(name(), ex);
		}
	}

	private ObjectReader springTypedReader() {
		ObjectReader reader = this.springTypedReader;
		if (reader == null) {
			reader = SpringJsonCompatibility.mapper(this.mapper, Set.of()).readerFor(this.type);
			this.springTypedReader = reader;
		}
		return reader;
	}

	@Override
	public int estimateSize(T value) {
		return this.sizeHint.estimate();
	}

	@Override
	public int formatId() {
		return FormatHeader.JSON;
	}

	@Override
	public boolean isText() {
		return true;
	}

	@Override
	public String name() {
		return "json";
	}

	@Override
	public String toString() {
		return "JsonFormat[" + this.type + "]";
	}

}
