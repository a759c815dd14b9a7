package dev.slipcase.redis.serializer;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.slipcase.redis.serializer.compression.Compressor;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TaggedFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.serializer.fory.ForyFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.json.PolymorphicJsonFormat;
import dev.slipcase.redis.serializer.protostuff.PolymorphicProtostuffFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.util.Assert;

/**
 * Picks each type's format: a registration in code, else the type's {@link RedisFormat}
 * annotation, else uncompressed JSON. Strings chosen as JSON are stored as their bare UTF-8 text
 * and numbers as bare decimal JSON, so both stay plain in {@code redis-cli} and numbers work with
 * {@code INCR}. The formats and serializers it makes write in the chosen
 * format and read every format the type can be in (JSON with or without a header, Protostuff)
 * with every registered compressor, by the value's header, so a type's format can evolve (small
 * types in JSON, big ones in Protostuff plus Zstd) without a flag day: read old, write new.
 * <p>
 * Immutable and thread-safe; build with {@link #builder()}.
 * <p>
 * Longer than most classes because its builder documents one {@code route} call per kind of type
 * ({@code Class} or full generic type, with or without a compressor).
 */
public final class FormatRouter {

	private final Map<Class<?>, Choice> registrations;

	private final Map<JavaType, Choice> genericRegistrations;

	private final FormatSettings settings;

	private FormatRouter(Builder builder) {
		this.registrations = Map.copyOf(builder.registrations);
		this.genericRegistrations = Map.copyOf(builder.genericRegistrations);
		CompressorLookup compressors = builder.compressors;
		for (Compressor routed : builder.routedCompressors) {
			if (compressors.byName(routed.name()) != routed) {
				compressors = compressors.with(routed);
			}
		}
		this.settings = builder.settings().withCompressors(compressors);
	}

	/** A builder of a router. */
	public static Builder builder() {
		return new Builder();
	}

	/** The format for values of {@code type}. */
	public <T> SelfDescribingFormat<T> format(Class<T> type) {
		Assert.notNull(type, "type must not be null");
		return format(this.settings.mapper().constructType(type), JsonFormat.of(this.settings.mapper(), type), type);
	}

	/**
	 * The format for values of the generic {@code type}, chosen by its full type when it was
	 * routed as such ({@code List<Order>}), else by its raw class.
	 */
	public <T> SelfDescribingFormat<T> format(TypeReference<T> type) {
		Assert.notNull(type, "type must not be null");
		JavaType javaType = this.settings.mapper().constructType(type);
		return format(javaType, JsonFormat.of(this.settings.mapper(), type), type.getType());
	}

	/**
	 * The format for values of {@code type}, a {@code Class} or a generic type such as a method's
	 * return type {@code Map<String, List<Order>>} (chosen by its full type when it was routed as
	 * such, else by its raw class); the caller vouches that the values it writes are of that type.
	 */
	@SuppressWarnings("unchecked")
	public SelfDescribingFormat<Object> format(Type type) {
		Assert.notNull(type, "type must not be null");
		JavaType javaType = this.settings.mapper().constructType(type);
		return format(javaType, JsonFormat.of(this.settings.mapper(), javaType), type);
	}

	/** A serializer for values of {@code type}. */
	public <T> SlipcaseRedisSerializer<T> serializer(Class<T> type) {
		return SlipcaseRedisSerializer.of(format(type), type, this.settings.allocator());
	}

	/** A serializer for values of the generic {@code type}. */
	public <T> SlipcaseRedisSerializer<T> serializer(TypeReference<T> type) {
		SelfDescribingFormat<T> format = format(type);
		return SlipcaseRedisSerializer.of(format, this.settings.mapper().constructType(type).getRawClass(),
				this.settings.allocator());
	}

	/**
	 * The format for values of any of the allowlisted types behind one serializer (a
	 * {@code RedisTemplate<String, Object>}): each value is written in its own type's chosen format,
	 * tagged with the type's short id ({@link PolymorphicJsonFormat},
	 * {@link PolymorphicProtostuffFormat}), and every value is read back by its header.
	 * @throws IllegalArgumentException when a type chooses Protostuff but cannot be represented in
	 * it, or chooses a compressor that is not registered
	 */
	public ValueFormat<Object> format(TypeAllowlist allowlist) {
		Assert.notNull(allowlist, "allowlist must not be null");
		PolymorphicJsonFormat json = PolymorphicJsonFormat.of(this.settings.mapper(), allowlist);
		PolymorphicProtostuffFormat protostuff = PolymorphicProtostuffFormat.of(allowlist);
		// Fory names the registered class of each value itself: one format holds every type that chose it
		List<Class<?>> foryTypes = new ArrayList<>();
		allowlist.types().forEach((id, type) -> {
			if (choiceFor(type).kind() == FormatKind.FORY) {
				foryTypes.add(type.getRawClass());
			}
		});
		ForyFormat<Object> fory = foryTypes.isEmpty() ? null : ForyFormat.of(Object.class, foryTypes);
		Map<String, SelfDescribingFormat<Object>> writers = new LinkedHashMap<>();
		allowlist.types().forEach((id, type) -> {
			Choice choice = choiceFor(type);
			if (choice.kind() == FormatKind.PROTOSTUFF) {
				protostuff.requireSupported(id);
			}
			TaggedFormat<Object> writeFormat = switch (choice.kind()) {
				case PROTOSTUFF -> protostuff;
				case FORY -> Objects.requireNonNull(fory);
				case JSON -> json;
			};
			writers.put(id, configure(SelfDescribingFormat.builder(writeFormat), choice, type.getRawClass()).build());
		});
		SelfDescribingFormat.Builder<Object> readers = configure(SelfDescribingFormat.builder((TaggedFormat<Object>) json),
				new Choice(FormatKind.JSON, null, 0), Object.class)
			.readAlso(protostuff);
		if (fory != null) {
			readers.readAlso(fory);
		}
		SelfDescribingFormat<Object> reader = readers.build();
		return new TypeRoutingFormat(allowlist, writers, reader);
	}

	/** A serializer for values of any of the allowlisted types; see {@link #format(TypeAllowlist)}. */
	public SlipcaseRedisSerializer<Object> serializer(TypeAllowlist allowlist) {
		return SlipcaseRedisSerializer.of(format(allowlist), Object.class, this.settings.allocator());
	}

	/**
	 * How values of the generic {@code type} are written: its own route, else its raw class's
	 * route, annotation or the default.
	 */
	public Choice choiceFor(JavaType type) {
		Assert.notNull(type, "type must not be null");
		Choice routed = this.genericRegistrations.get(type);
		return (routed != null) ? routed : choiceFor(type.getRawClass());
	}

	/** Builds the keys generic routes are found by, the same whatever mapper the router uses. */
	private static final TypeFactory TYPE_KEYS = TypeFactory.createDefaultInstance();

	/** How values of {@code type} are written: its registration, annotation or the default. */
	public Choice choiceFor(Class<?> type) {
		Choice registered = this.registrations.get(type);
		if (registered != null) {
			return registered;
		}
		RedisFormat annotation = type.getAnnotation(RedisFormat.class);
		if (annotation != null) {
			return new Choice(annotation.value(), annotation.compression().isEmpty() ? null : annotation.compression(),
					annotation.minCompressSize());
		}
		return new Choice(FormatKind.JSON, null, SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE);
	}

	@SuppressWarnings("unchecked")
	private <T> SelfDescribingFormat<T> format(JavaType javaType, JsonFormat<T> json, Type type) {
		Class<?> raw = javaType.getRawClass();
		Choice choice = choiceFor(javaType);
		ProtostuffFormat<T> protostuff = protostuffOrNull(type, choice.kind() == FormatKind.PROTOSTUFF);
		TaggedFormat<T> writeFormat = switch (choice.kind()) {
			case PROTOSTUFF -> protostuff;
			case FORY -> ForyFormat.of(type);
			case JSON -> (raw == String.class) ? (TaggedFormat<T>) Utf8StringFormat.INSTANCE : json;
		};
		SelfDescribingFormat.Builder<T> builder = configure(SelfDescribingFormat.builder(writeFormat), choice, raw)
			.readAlso(json);
		if (protostuff != null) {
			builder.readAlso(protostuff);
		}
		return builder.build();
	}

	private <T> SelfDescribingFormat.Builder<T> configure(SelfDescribingFormat.Builder<T> builder, Choice choice,
			Class<?> raw) {
		builder.compressors(this.settings.compressors())
			.maxDecompressedSize(this.settings.maxDecompressedSize())
			.allocator(this.settings.allocator())
			.observer(this.settings.observer())
			.observationRegistry(this.settings.observations());
		if (choice.compression() != null) {
			Compressor compressor = this.settings.compressors().byName(choice.compression());
			if (compressor == null) {
				throw new IllegalArgumentException("compressor '" + choice.compression() + "' chosen for "
						+ raw.getName() + " is not registered; registered: " + this.settings.compressors().names());
			}
			builder.compression(compressor, choice.minCompressSize());
		}
		return builder;
	}

	private static <T> @Nullable ProtostuffFormat<T> protostuffOrNull(Type type, boolean required) {
		try {
			return ProtostuffFormat.of(type);
		}
		catch (IllegalArgumentException ex) {
			if (required) {
				throw ex;
			}
			return null;
		}
	}

	/**
	 * How a type's values are written.
	 * @param kind the format
	 * @param compression the compressor's name, or {@code null} for none
	 * @param minCompressSize the smallest encoded size that is compressed
	 */
	public record Choice(FormatKind kind, @Nullable String compression, int minCompressSize) {

		public Choice {
			Assert.notNull(kind, "kind must not be null");
			if (minCompressSize < 0) {
				throw new IllegalArgumentException("minCompressSize must not be negative, was " + minCompressSize);
			}
		}

	}

	/** Builds a {@link FormatRouter}; not thread-safe. */
	public static final class Builder extends FormatSettings.Builder<Builder> {

		private final Map<Class<?>, Choice> registrations = new LinkedHashMap<>();

		private final Map<JavaType, Choice> genericRegistrations = new LinkedHashMap<>();

		private final List<Compressor> routedCompressors = new ArrayList<>();

		private Builder() {
		}

		/**
		 * Writes {@code type}'s values in {@code format}, uncompressed, over its
		 * {@code @RedisFormat}:
		 * <pre class="code">
		 * FormatRouter.builder().route(Order.class, FormatKind.PROTOSTUFF)
		 * </pre>
		 */
		public Builder route(Class<?> type, FormatKind format) {
			return register(type, new Choice(format, null, SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE));
		}

		/**
		 * Writes {@code type}'s values in {@code format}, compressed with {@code compressor} when
		 * they are at least {@value SelfDescribingFormat#DEFAULT_MIN_COMPRESS_SIZE} bytes; the
		 * compressor is registered for reading too:
		 * <pre class="code">
		 * FormatRouter.builder().route(Order.class, FormatKind.PROTOSTUFF, ZstdCompressor.create())
		 * </pre>
		 */
		public Builder route(Class<?> type, FormatKind format, Compressor compressor) {
			return register(type, new Choice(format, routed(compressor), SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE));
		}

		/**
		 * Writes values of the generic {@code type} (this exact type: {@code List<Order>} and
		 * {@code List<Customer>} are routed apart) in {@code format}, uncompressed.
		 */
		public Builder route(TypeReference<?> type, FormatKind format) {
			return register(type, new Choice(format, null, SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE));
		}

		/**
		 * Writes values of the generic {@code type} in {@code format}, compressed with
		 * {@code compressor} from {@value SelfDescribingFormat#DEFAULT_MIN_COMPRESS_SIZE} bytes.
		 */
		public Builder route(TypeReference<?> type, FormatKind format, Compressor compressor) {
			return register(type, new Choice(format, routed(compressor), SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE));
		}

		/**
		 * Registers {@code compressor} for writing and reading, for a {@link Choice} that names
		 * it with another threshold: {@code register(Order.class, new Choice(FormatKind.JSON,
		 * builder.compressor(zstd), 512))}.
		 * @return the compressor's name
		 */
		public String compressor(Compressor compressor) {
			return routed(compressor);
		}

		/** Writes values of the generic {@code type} as {@code choice} says. */
		public Builder register(TypeReference<?> type, Choice choice) {
			Assert.notNull(type, "type must not be null");
			Assert.notNull(choice, "choice must not be null");
			JavaType key = TYPE_KEYS.constructType(type);
			if (key.getBindings().isEmpty() && !key.isArrayType()) {
				return register(key.getRawClass(), choice);
			}
			this.genericRegistrations.put(key, choice);
			return this;
		}

		private String routed(Compressor compressor) {
			Assert.notNull(compressor, "compressor must not be null");
			this.routedCompressors.add(compressor);
			return compressor.name();
		}

		/** Writes {@code type}'s values in {@code kind}, uncompressed (overrides its annotation). */
		public Builder register(Class<?> type, FormatKind kind) {
			return register(type, new Choice(kind, null, SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE));
		}

		/** Writes {@code type}'s values as {@code choice} says (overrides its annotation). */
		public Builder register(Class<?> type, Choice choice) {
			Assert.notNull(type, "type must not be null");
			Assert.notNull(choice, "choice must not be null");
			this.registrations.put(type, choice);
			return this;
		}

		/** The compressors values are written and read with, chosen by name. */
		public Builder compressors(Compressor... compressors) {
			return compressors(CompressorLookup.of(compressors));
		}

		/** The router. */
		public FormatRouter build() {
			return new FormatRouter(this);
		}

	}

}
