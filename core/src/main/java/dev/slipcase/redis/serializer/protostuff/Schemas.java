package dev.slipcase.redis.serializer.protostuff;

import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.slipcase.redis.serializer.format.ResolvedType;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;

/**
 * Builds the schema of a Java type, resolving generics, once per type. Synchronized: schemas are
 * built when a format is created, never per value.
 */
final class Schemas {

	private static final Map<String, MessageSchema> RECORDS = new HashMap<>();

	private Schemas() {
	}

	/** The root schema for values of {@code type}. */
	static synchronized Schema<Object> root(Type type) {
		Type resolved = resolve(type, Map.of(), type);
		Class<?> raw = rawClass(resolved, type);
		if (raw.isRecord()) {
			return record(raw, bindings(raw, resolved, type), type);
		}
		if (isPojo(raw)) {
			return pojo(raw);
		}
		return new WrapperSchema(slot(resolved, Map.of(), type), raw);
	}

	private static Slot slot(Type type, Map<TypeVariable<?>, Type> bindings, Type root) {
		Type resolved = resolve(type, bindings, root);
		Class<?> raw = rawClass(resolved, root);
		Slot scalar = ScalarSlots.forClass(raw);
		if (scalar != null) {
			return scalar;
		}
		if (raw.isRecord()) {
			return new MessageSlot(record(raw, bindings(raw, resolved, root), root));
		}
		if (Collection.class.isAssignableFrom(raw)) {
			CollectionSchema.Kind kind = collectionKind(raw, root);
			return new MessageSlot(new CollectionSchema(slot(argument(resolved, 0, root), bindings, root), kind, raw));
		}
		if (Map.class.isAssignableFrom(raw)) {
			boolean sorted = mapSorted(raw, root);
			return new MessageSlot(new MapSchema(slot(argument(resolved, 0, root), bindings, root),
					slot(argument(resolved, 1, root), bindings, root), sorted, raw));
		}
		if (raw == Optional.class) {
			throw unsupported(root, "Optional is supported only as a record component, not as " + type);
		}
		if (isPojo(raw)) {
			return new MessageSlot(pojo(raw));
		}
		throw unsupported(root, "no protostuff schema for " + type.getTypeName()
				+ " (interfaces, abstract classes, Object and arrays other than byte[] are not supported;"
				+ " use a record, a concrete class, a collection or a map)");
	}

	@SuppressWarnings("unchecked")
	private static Schema<Object> pojo(Class<?> raw) {
		return (Schema<Object>) RuntimeSchema.getSchema(raw);
	}

	private static MessageSchema record(Class<?> raw, Map<TypeVariable<?>, Type> bindings, Type root) {
		String key = raw.getName() + bindings.values().stream().map(Type::getTypeName).toList();
		MessageSchema existing = RECORDS.get(key);
		if (existing != null) {
			return existing;
		}
		RecordSchema schema = new RecordSchema(raw);
		RECORDS.put(key, schema);
		try {
			RecordComponent[] recordComponents = raw.getRecordComponents();
			RecordSchema.Component[] components = new RecordSchema.Component[recordComponents.length];
			Class<?>[] parameterTypes = new Class<?>[recordComponents.length];
			for (int i = 0; i < recordComponents.length; i++) {
				RecordComponent component = recordComponents[i];
				parameterTypes[i] = component.getType();
				Type componentType = component.getGenericType();
				boolean optional = component.getType() == Optional.class;
				if (optional) {
					componentType = argument(componentType, 0, root);
				}
				component.getAccessor().setAccessible(true);
				components[i] = new RecordSchema.Component(component, slot(componentType, bindings, root), optional);
			}
			Constructor<?> constructor = raw.getDeclaredConstructor(parameterTypes);
			constructor.setAccessible(true);
			schema.init(components, constructor);
			return schema;
		}
		catch (NoSuchMethodException | IllegalAccessException | RuntimeException ex) {
			RECORDS.remove(key);
			if (ex instanceof IllegalArgumentException) {
				throw (IllegalArgumentException) ex;
			}
			throw unsupported(root, "cannot use record " + raw.getName() + ": " + ex);
		}
	}

	private static boolean isPojo(Class<?> raw) {
		return !raw.isInterface() && !Modifier.isAbstract(raw.getModifiers()) && !raw.isArray()
				&& !raw.isPrimitive() && raw != Object.class && !raw.isEnum() && !raw.getName().startsWith("java.")
				&& !Collection.class.isAssignableFrom(raw) && !Map.class.isAssignableFrom(raw);
	}

	private static CollectionSchema.Kind collectionKind(Class<?> raw, Type root) {
		if (raw == Collection.class || raw == List.class || raw == ArrayList.class) {
			return CollectionSchema.Kind.LIST;
		}
		if (raw == Set.class || raw == HashSet.class || raw == LinkedHashSet.class) {
			return CollectionSchema.Kind.SET;
		}
		if (raw == SortedSet.class || raw == NavigableSet.class || raw == TreeSet.class) {
			return CollectionSchema.Kind.SORTED_SET;
		}
		throw unsupported(root, "collection type " + raw.getName()
				+ " is not supported; declare Collection, List, Set or SortedSet (or ArrayList, HashSet, LinkedHashSet, TreeSet)");
	}

	private static boolean mapSorted(Class<?> raw, Type root) {
		if (raw == Map.class || raw == HashMap.class || raw == LinkedHashMap.class) {
			return false;
		}
		if (raw == SortedMap.class || raw == NavigableMap.class || raw == TreeMap.class) {
			return true;
		}
		throw unsupported(root, "map type " + raw.getName()
				+ " is not supported; declare Map or SortedMap (or HashMap, LinkedHashMap, TreeMap)");
	}

	private static Map<TypeVariable<?>, Type> bindings(Class<?> raw, Type resolved, Type root) {
		TypeVariable<?>[] variables = raw.getTypeParameters();
		if (variables.length == 0) {
			return Map.of();
		}
		if (!(resolved instanceof ParameterizedType parameterized)) {
			throw unsupported(root, "generic " + raw.getName() + " needs its type arguments (use a TypeReference)");
		}
		Map<TypeVariable<?>, Type> bindings = new LinkedHashMap<>();
		Type[] arguments = parameterized.getActualTypeArguments();
		for (int i = 0; i < variables.length; i++) {
			bindings.put(variables[i], arguments[i]);
		}
		return bindings;
	}

	private static Type argument(Type type, int index, Type root) {
		if (type instanceof ParameterizedType parameterized) {
			return parameterized.getActualTypeArguments()[index];
		}
		throw unsupported(root, "raw " + type.getTypeName() + " needs its type arguments");
	}

	private static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings, Type root) {
		if (type instanceof TypeVariable<?> variable) {
			Type bound = bindings.get(variable);
			if (bound == null) {
				throw unsupported(root, "type variable " + variable + " is not bound (use a TypeReference)");
			}
			return bound;
		}
		if (type instanceof WildcardType wildcard) {
			return resolve(wildcard.getUpperBounds()[0], bindings, root);
		}
		if (type instanceof ParameterizedType parameterized && !bindings.isEmpty()) {
			Type[] arguments = parameterized.getActualTypeArguments().clone();
			for (int i = 0; i < arguments.length; i++) {
				arguments[i] = resolve(arguments[i], bindings, root);
			}
			return new ResolvedType((Class<?>) parameterized.getRawType(), arguments);
		}
		return type;
	}

	private static Class<?> rawClass(Type type, Type root) {
		if (type instanceof Class<?> raw) {
			return raw;
		}
		if (type instanceof ParameterizedType parameterized) {
			return (Class<?>) parameterized.getRawType();
		}
		if (type instanceof GenericArrayType) {
			throw unsupported(root, "generic arrays are not supported: " + type.getTypeName());
		}
		throw unsupported(root, "unsupported type " + type.getTypeName());
	}

	private static IllegalArgumentException unsupported(Type root, String what) {
		return new IllegalArgumentException("protostuff cannot handle " + root.getTypeName() + ": " + what);
	}

}
