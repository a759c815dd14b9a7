package dev.slipcase.redis.serializer;

import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.serializer.FormatRouter.Choice;
import dev.slipcase.redis.serializer.format.CompressorLookup;
import dev.slipcase.redis.serializer.format.SelfDescribingFormat;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;

import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.util.Assert;

/**
 * The serializers an application's templates and caches share, configured once: the allowed
 * value types (by short id), each type's format and compression, the compressors values are read
 * with, the decompression cap and the allocator scratch buffers come from.
 * <p>
 * A type's values are written as chosen by, first, a {@link Builder#route route} (from
 * {@code slipcase.redis.types.<id>.*} or code), then its {@code @RedisFormat} annotation, then
 * the {@link Builder#defaultChoice default}; they are read in every format and with every
 * registered compressor, so changing a choice never makes stored values unreadable.
 * <p>
 * Immutable and thread-safe; build with {@link #builder()}.
 * <p>
 * Longer than most classes because its builder checks each setting where it is set, and
 * {@link #formatFor} decides how each kind of cached type is stored (one type, several, an
 * interface), each case in a few lines.
 */
public final class SlipcaseSerializerFamily {

	private final TypeAllowlist allowlist;

	private final Map<Class<?>, Choice> routes;

	private final Choice defaultChoice;

	private final FormatSettings settings;

	private final FormatRouter router;

	private final SlipcaseRedisSerializer<Object> valueSerializer;

	private final SlipcaseRedisSerializer<Object> templateValueSerializer;

	private SlipcaseSerializerFamily(Builder builder) {
		TypeAllowlist.Builder allowlist = TypeAllowlist.builder();
		builder.classes.forEach(allowlist::allow);
		builder.generics.forEach(allowlist::allow);
		this.allowlist = allowlist.build();
		this.routes = Map.copyOf(builder.routes);
		this.defaultChoice = builder.defaultChoice;
		this.settings = builder.settings();
		this.router = router(null, null);
		ValueFormat<Object> values = this.router.format(this.allowlist);
		this.valueSerializer = SlipcaseRedisSerializer.of(values, Object.class, this.settings.allocator());
		this.templateValueSerializer = SlipcaseRedisSerializer.of(PlainValuesFormat.of(values), Object.class,
				this.settings.allocator())
			.withEmptyValue("");
	}

	/** A builder with no allowed types, JSON uncompressed by default and no compressors. */
	public static Builder builder() {
		return new Builder();
	}

	/** The allowed types behind {@link #valueSerializer()}, by id. */
	public TypeAllowlist allowlist() {
		return this.allowlist;
	}

	/** The router that chooses each type's format, for serializers of one type. */
	public FormatRouter router() {
		return this.router;
	}

	/** The compressors values are read with. */
	public CompressorLookup compressors() {
		return this.settings.compressors();
	}

	/** The allocator scratch buffers come from. */
	public ByteBufAllocator allocator() {
		return this.settings.allocator();
	}

	/** Where this family's formats, and the serializers and templates using them, report what they do. */
	public SlipcaseObserver observer() {
		return this.settings.observer();
	}

	/** A serializer for values of {@code type}, as routed. */
	public <T> SlipcaseRedisSerializer<T> serializer(Class<T> type) {
		return this.router.serializer(type);
	}

	/**
	 * The serializer for values of any allowed type behind {@code Object}: each value tagged with
	 * its type's id and written in its type's format; also reads what Spring Data's
	 * {@code GenericJacksonJsonRedisSerializer} wrote for an allowed type.
	 */
	public SlipcaseRedisSerializer<Object> valueSerializer() {
		return this.valueSerializer;
	}

	/**
	 * Like {@link #valueSerializer()}, but writing every type in {@code format} and with
	 * {@code compression} where they are not {@code null} ({@code "none"} for no compression).
	 * @throws IllegalArgumentException when the compressor is not registered or a type cannot be
	 * written in the format
	 */
	public SlipcaseRedisSerializer<Object> valueSerializer(@Nullable FormatKind format, @Nullable String compression) {
		if (format == null && compression == null) {
			return this.valueSerializer;
		}
		return router(format, compression).serializer(this.allowlist);
	}

	/**
	 * The serializer of an {@code Object} template's values and hash values: the
	 * {@link #valueSerializer()}, also reading the plain values other writers leave under the
	 * template's keys (counters, text, what {@code json()} wrote for strings, numbers and booleans;
	 * see {@link PlainValuesFormat}), and the empty value as {@code ""}. Not for caches, whose
	 * typed methods must not be answered with a {@code Long}.
	 */
	public SlipcaseRedisSerializer<Object> templateValueSerializer() {
		return this.templateValueSerializer;
	}

	/**
	 * Configures {@code template} with this family: UTF-8 {@code String} keys and hash keys, and
	 * values and hash values through {@link #templateValueSerializer()}. The one way Slipcase
	 * configures a {@code RedisTemplate}; the caller initializes the template.
	 */
	public void configure(RedisTemplate<?, ?> template) {
		Assert.notNull(template, "template must not be null");
		template.setKeySerializer(SlipcaseSerializers.string());
		template.setHashKeySerializer(SlipcaseSerializers.string());
		template.setValueSerializer(this.templateValueSerializer);
		template.setHashValueSerializer(this.templateValueSerializer);
	}

	/**
	 * This family as a reactive template's serializers: UTF-8 {@code String} keys and hash keys,
	 * values and hash values through {@link #templateValueSerializer()}; the reactive twin of
	 * {@link #configure(RedisTemplate)}.
	 */
	public RedisSerializationContext<String, Object> serializationContext() {
		return RedisSerializationContext.<String, Object>newSerializationContext(this.templateValueSerializer)
			.key(SlipcaseSerializers.string())
			.hashKey(SlipcaseSerializers.string())
			.value(this.templateValueSerializer)
			.hashValue(this.templateValueSerializer)
			.string(SlipcaseSerializers.string())
			.build();
	}

	/** How values of {@code type} are written. */
	public Choice choiceFor(Class<?> type) {
		return this.router.choiceFor(type);
	}

	/**
	 * The format for values of exactly {@code types}, such as the return types of the methods
	 * that fill one cache, written in {@code format} and with {@code compression} where they are
	 * not {@code null} ({@code "none"} for no compression):
	 * <ul>
	 * <li>one concrete type ({@code Order}, {@code List<Order>}, {@code Map<String, List<Order>>}):
	 * written in its own format, no tag, so JSON stays plain;</li>
	 * <li>several types: each value tagged with a short id ({@link TypeIds}, or its id in this
	 * family's allowlist), and only these types are read;</li>
	 * <li>an abstract type or interface: tagged, and only the allowed types that implement it
	 * are read;</li>
	 * <li>{@code Object}, or no type at all: {@link #valueSerializer(FormatKind, String)}'s
	 * format.</li>
	 * </ul>
	 * @throws IllegalArgumentException when a type cannot be stored: an abstract type no allowed
	 * type implements, or a type whose elements are of such a type
	 */
	public ValueFormat<Object> formatFor(List<? extends Type> types, @Nullable FormatKind format,
			@Nullable String compression) {
		Assert.notNull(types, "types must not be null");
		Map<JavaType, Type> distinct = new LinkedHashMap<>();
		for (Type type : types) {
			Assert.notNull(type, "type must not be null");
			distinct.putIfAbsent(this.settings.mapper().constructType(type), type);
		}
		if (distinct.isEmpty() || distinct.keySet().stream().anyMatch((type) -> type.getRawClass() == Object.class)) {
			return router(format, compression).format(this.allowlist);
		}
		distinct.keySet().forEach(SlipcaseSerializerFamily::requireReadableElements);
		if (distinct.size() == 1 && isConcrete(distinct.keySet().iterator().next())) {
			Map.Entry<JavaType, Type> only = distinct.entrySet().iterator().next();
			return router(format, compression, List.of(only.getKey().getRawClass())).format(only.getValue());
		}
		TypeAllowlist.Builder allowed = TypeAllowlist.builder();
		Set<String> ids = new LinkedHashSet<>();
		List<Class<?>> classes = new ArrayList<>();
		distinct.forEach((javaType, type) -> {
			if (isConcrete(javaType)) {
				String id = idOf(javaType);
				if (!ids.add(id)) {
					id = TypeIds.distinct(javaType);
					ids.add(id);
				}
				allowed.allow(id, type);
				classes.add(javaType.getRawClass());
				return;
			}
			Map<String, JavaType> implementations = implementationsOf(javaType.getRawClass());
			implementations.forEach((id, implementation) -> {
				if (ids.add(id)) {
					allowed.allow(id, this.allowlist.declaredTypes().get(id));
					classes.add(implementation.getRawClass());
				}
			});
		});
		return router(format, compression, classes).format(allowed.build());
	}

	private String idOf(JavaType type) {
		String id = this.allowlist.idOf(type.getRawClass());
		if (id != null && this.allowlist.typeOf(id).equals(type)) {
			return id;
		}
		return TypeIds.of(type);
	}

	private Map<String, JavaType> implementationsOf(Class<?> abstractType) {
		Map<String, JavaType> implementations = new LinkedHashMap<>();
		this.allowlist.types().forEach((id, type) -> {
			if (abstractType.isAssignableFrom(type.getRawClass()) && isConcrete(type)) {
				implementations.put(id, type);
			}
		});
		if (implementations.isEmpty()) {
			throw new IllegalArgumentException(abstractType.getName() + " is "
					+ (abstractType.isInterface() ? "an interface" : "abstract")
					+ " and no allowed value type implements it, so a stored value could not be read back as any class");
		}
		return implementations;
	}

	/** Whether values of {@code type} can be read back as that type, with no type id stored. */
	private static boolean isConcrete(JavaType type) {
		Class<?> raw = type.getRawClass();
		return type.isContainerType() || type.isArrayType() || raw.isPrimitive()
				|| (!raw.isInterface() && !Modifier.isAbstract(raw.getModifiers())) || raw.isEnum();
	}

	private static void requireReadableElements(JavaType type) {
		List<JavaType> parts = new ArrayList<>(type.getBindings().getTypeParameters());
		if (type.getContentType() != null) {
			parts.add(type.getContentType());
		}
		if (type.getKeyType() != null) {
			parts.add(type.getKeyType());
		}
		for (JavaType part : parts) {
			if (part.getRawClass() != Object.class && !isConcrete(part)) {
				throw new IllegalArgumentException(type.toCanonical() + " holds values of "
						+ part.getRawClass().getName() + ", which is " + (part.isInterface() ? "an interface" : "abstract")
						+ ", so stored elements could not be read back as any class");
			}
			requireReadableElements(part);
		}
	}

	private FormatRouter router(@Nullable FormatKind format, @Nullable String compression) {
		List<Class<?>> classes = new ArrayList<>();
		this.allowlist.types().values().forEach((type) -> classes.add(type.getRawClass()));
		return router(format, compression, classes);
	}

	private FormatRouter router(@Nullable FormatKind format, @Nullable String compression, List<Class<?>> types) {
		FormatRouter.Builder builder = FormatRouter.builder().settings(this.settings);
		FormatRouter base = (format == null && compression == null) ? null : this.router;
		for (Class<?> type : types) {
			Choice choice = (base != null) ? base.choiceFor(type) : baseChoice(type);
			if (choice == null) {
				continue;
			}
			if (format != null || compression != null) {
				String chosenCompression = (compression == null) ? choice.compression()
						: "none".equalsIgnoreCase(compression) ? null : compression;
				choice = new Choice((format != null) ? format : choice.kind(), chosenCompression,
						choice.minCompressSize());
			}
			builder.register(type, choice);
		}
		return builder.build();
	}

	private @Nullable Choice baseChoice(Class<?> type) {
		Choice route = this.routes.get(type);
		if (route != null) {
			return route;
		}
		return (type.isAnnotationPresent(RedisFormat.class)) ? null : this.defaultChoice;
	}

	private static final Map<String, Class<?>> JDK_VALUE_TYPES = jdkValueTypes();

	private static Map<String, Class<?>> jdkValueTypes() {
		Map<String, Class<?>> types = new LinkedHashMap<>();
		types.put("java.string", String.class);
		types.put("java.long", Long.class);
		types.put("java.integer", Integer.class);
		types.put("java.double", Double.class);
		types.put("java.boolean", Boolean.class);
		types.put("java.decimal", java.math.BigDecimal.class);
		types.put("java.instant", java.time.Instant.class);
		types.put("java.local-date", java.time.LocalDate.class);
		return java.util.Collections.unmodifiableMap(types);
	}

	/** Builds a {@link SlipcaseSerializerFamily}; not thread-safe. */
	public static final class Builder extends FormatSettings.Builder<Builder> {

		private final Map<String, Class<?>> classes = new LinkedHashMap<>();

		private final Map<String, TypeReference<?>> generics = new LinkedHashMap<>();

		private final Map<Class<?>, Choice> routes = new LinkedHashMap<>();

		private Choice defaultChoice = new Choice(FormatKind.JSON, null, SelfDescribingFormat.DEFAULT_MIN_COMPRESS_SIZE);

		private Builder() {
		}

		/** Allows {@code type} behind the {@code Object} serializers under {@code id}. */
		public Builder allow(String id, Class<?> type) {
			Assert.notNull(type, "type must not be null");
			requireNewId(id);
			this.classes.put(id, type);
			return this;
		}

		/** Allows the generic {@code type} (such as {@code Page<Order>}) under {@code id}. */
		public Builder allow(String id, TypeReference<?> type) {
			Assert.notNull(type, "type must not be null");
			requireNewId(id);
			this.generics.put(id, type);
			return this;
		}

		/**
		 * Allows {@code type} under {@code id} unless the id or the type is already allowed.
		 * @return whether it was allowed now
		 */
		public boolean allowIfAbsent(String id, Class<?> type) {
			if (isAllowed(id) || isAllowedType(type)) {
				return false;
			}
			allow(id, type);
			return true;
		}

		/**
		 * Allows the JDK's value types whose ids are still free ({@code java.string},
		 * {@code java.long}, {@code java.integer}, {@code java.double}, {@code java.boolean},
		 * {@code java.decimal}, {@code java.instant}, {@code java.local-date}), written as
		 * {@code choice} says.
		 */
		public Builder allowJdkValueTypes(Choice choice) {
			Assert.notNull(choice, "choice must not be null");
			JDK_VALUE_TYPES.forEach((id, type) -> {
				if (!isAllowed(id)) {
					allow(id, type).route(type, choice);
				}
			});
			return this;
		}

		/** Whether {@code type} is already allowed, under any id. */
		public boolean isAllowedType(Class<?> type) {
			return this.classes.containsValue(type);
		}

		/** Whether a type is already allowed under {@code id}. */
		public boolean isAllowed(String id) {
			return this.classes.containsKey(id) || this.generics.containsKey(id);
		}

		private void requireNewId(String id) {
			Assert.notNull(id, "id must not be null");
			if (isAllowed(id)) {
				throw new IllegalArgumentException("id '" + id + "' is already allowed");
			}
		}

		/** Writes {@code type}'s values as {@code choice} says, over its annotation. */
		public Builder route(Class<?> type, Choice choice) {
			Assert.notNull(type, "type must not be null");
			Assert.notNull(choice, "choice must not be null");
			this.routes.put(type, choice);
			return this;
		}

		/** How values of types with neither a route nor an annotation are written. */
		public Builder defaultChoice(Choice choice) {
			Assert.notNull(choice, "choice must not be null");
			this.defaultChoice = choice;
			return this;
		}

		/**
		 * The family.
		 * @throws IllegalArgumentException when a choice names a compressor that is not
		 * registered, or a type cannot be written in its chosen format
		 */
		public SlipcaseSerializerFamily build() {
			return new SlipcaseSerializerFamily(this);
		}

	}

}
