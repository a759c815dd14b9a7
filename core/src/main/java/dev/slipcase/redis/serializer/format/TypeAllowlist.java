package dev.slipcase.redis.serializer.format;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.util.Assert;

/**
 * The closed set of types a polymorphic format
 * ({@link dev.slipcase.redis.serializer.json.PolymorphicJsonFormat}) may write and read, each under
 * a short, stable type id chosen by the application (such as {@code "order"}), never a class name. A
 * payload naming an id (or, for Spring Data's typed JSON, a class) outside the list is refused.
 * <p>
 * On write, a value's type is found by its exact class first, then by the first entry (in
 * registration order) its class is assignable to. Immutable and thread-safe; build with
 * {@link #builder()}.
 */
public final class TypeAllowlist {

	private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

	private final Map<String, JavaType> typesById;

	private final Map<String, Type> declaredTypesById;

	private final Map<Class<?>, String> idsByClass;

	private final List<Map.Entry<Class<?>, String>> entries;

	private TypeAllowlist(Map<String, JavaType> typesById, Map<String, Type> declaredTypesById) {
		this.typesById = Collections.unmodifiableMap(new LinkedHashMap<>(typesById));
		this.declaredTypesById = Collections.unmodifiableMap(new LinkedHashMap<>(declaredTypesById));
		Map<Class<?>, String> idsByClass = new LinkedHashMap<>();
		List<Map.Entry<Class<?>, String>> entries = new ArrayList<>();
		typesById.forEach((id, type) -> {
			idsByClass.putIfAbsent(type.getRawClass(), id);
			entries.add(Map.entry(type.getRawClass(), id));
		});
		this.idsByClass = Collections.unmodifiableMap(idsByClass);
		this.entries = List.copyOf(entries);
	}

	/** A builder of an allowlist. */
	public static Builder builder() {
		return new Builder();
	}

	/** The type registered under {@code id}, or {@code null} when the id is not allowed. */
	public @Nullable JavaType typeOf(String id) {
		return this.typesById.get(id);
	}

	/** The id to write a value of {@code type} under, or {@code null} when it is not allowed. */
	public @Nullable String idOf(Class<?> type) {
		String id = this.idsByClass.get(type);
		if (id != null) {
			return id;
		}
		for (Map.Entry<Class<?>, String> entry : this.entries) {
			if (entry.getKey().isAssignableFrom(type)) {
				return entry.getValue();
			}
		}
		return null;
	}

	/**
	 * The id to write {@code value} under.
	 * @throws org.springframework.data.redis.serializer.SerializationException naming
	 * {@code formatName}, when its type is not allowed
	 */
	public String requireIdOf(Object value, String formatName) {
		String id = idOf(value.getClass());
		if (id == null) {
			throw FormatErrors.error(formatName, "type " + value.getClass().getName() + " is not in the allowlist "
					+ this.typesById.keySet());
		}
		return id;
	}

	/** Whether {@code id} names an allowed type. */
	public boolean isAllowed(String id) {
		return this.typesById.containsKey(id);
	}

	/** The allowed types by id as declared ({@code Class} or generic {@code Type}), in registration order. */
	public Map<String, Type> declaredTypes() {
		return this.declaredTypesById;
	}

	/** The allowed types by id, in registration order. */
	public Map<String, JavaType> types() {
		return this.typesById;
	}

	/** Builds a {@link TypeAllowlist}; not thread-safe. */
	public static final class Builder {

		private final Map<String, JavaType> types = new LinkedHashMap<>();

		private final Map<String, Type> declaredTypes = new LinkedHashMap<>();

		private Builder() {
		}

		/** Allows {@code type} under {@code id}. */
		public Builder allow(String id, Class<?> type) {
			Assert.notNull(type, "type must not be null");
			return add(id, TypeFactory.createDefaultInstance().constructType(type), type);
		}

		/** Allows the generic {@code type} under {@code id}. */
		public Builder allow(String id, TypeReference<?> type) {
			Assert.notNull(type, "type must not be null");
			return add(id, TypeFactory.createDefaultInstance().constructType(type), type.getType());
		}

		/** Allows {@code type}, a {@code Class} or a generic type such as a method's return type, under {@code id}. */
		public Builder allow(String id, Type type) {
			Assert.notNull(type, "type must not be null");
			return add(id, TypeFactory.createDefaultInstance().constructType(type), type);
		}

		private Builder add(String id, JavaType type, Type declared) {
			Assert.notNull(id, "id must not be null");
			if (!ID.matcher(id).matches()) {
				throw new IllegalArgumentException(
						"id must be 1 to 64 letters, digits or '_.:-', was '" + id + "'");
			}
			if (this.types.containsKey(id)) {
				throw new IllegalArgumentException("id '" + id + "' is already allowed for " + this.types.get(id));
			}
			this.types.put(id, type);
			this.declaredTypes.put(id, declared);
			return this;
		}

		/** The allowlist. */
		public TypeAllowlist build() {
			if (this.types.isEmpty()) {
				throw new IllegalArgumentException("an allowlist needs at least one type");
			}
			return new TypeAllowlist(this.types, this.declaredTypes);
		}

	}

}
