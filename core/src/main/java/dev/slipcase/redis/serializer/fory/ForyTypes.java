package dev.slipcase.redis.serializer.fory;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The application classes a value of a declared type can contain, each with the name Fory registers
 * it under: the type itself, the types of its record components and fields, their element, key and
 * value types, recursively (interfaces and abstract classes reached this way included; the
 * implementations a value holds must be given as roots). JDK types ({@code java.*}, {@code javax.*},
 * {@code jdk.*}) reached this way are left to Fory's built-ins; a concrete JDK class is listed only
 * when given as a root. Names are the simple class names, so a class that moves to another package
 * keeps reading its values; two classes of one simple name, and JDK classes, get their full names.
 * Stateless.
 */
public final class ForyTypes {

	private ForyTypes() {
	}

	/**
	 * The classes reachable from {@code roots}, in a stable order, with the name each registers under.
	 * @param roots the declared types and any extra classes a value may hold (subtypes of a declared
	 * interface, say)
	 */
	public static Map<Class<?>, String> reachableFrom(Iterable<? extends Type> roots) {
		Set<Class<?>> classes = new LinkedHashSet<>();
		for (Type root : roots) {
			if (root instanceof Class<?> named && isJdk(named) && isConcrete(named)) {
				// a JDK class named outright (a comparator a sorted map carries, say) is listed: it is
				// registered unless it is one of Fory's built-ins
				classes.add(named);
			}
			else {
				collect(root, classes);
			}
		}
		Map<String, Integer> simpleNames = new LinkedHashMap<>();
		classes.forEach((type) -> simpleNames.merge(type.getSimpleName(), 1, Integer::sum));
		Map<Class<?>, String> names = new LinkedHashMap<>();
		for (Class<?> type : classes) {
			boolean simple = simpleNames.get(type.getSimpleName()) == 1 && !isJdk(type);
			names.put(type, simple ? type.getSimpleName() : type.getName());
		}
		return names;
	}

	private static void collect(Type type, Set<Class<?>> classes) {
		if (type instanceof ParameterizedType parameterized) {
			collect(parameterized.getRawType(), classes);
			for (Type argument : parameterized.getActualTypeArguments()) {
				collect(argument, classes);
			}
		}
		else if (type instanceof GenericArrayType array) {
			collect(array.getGenericComponentType(), classes);
		}
		else if (type instanceof WildcardType wildcard) {
			for (Type bound : wildcard.getUpperBounds()) {
				collect(bound, classes);
			}
		}
		else if (type instanceof Class<?> raw) {
			collectClass(raw, classes);
		}
	}

	private static void collectClass(Class<?> type, Set<Class<?>> classes) {
		if (type.isArray()) {
			collect(type.getComponentType(), classes);
			return;
		}
		if (type.isPrimitive() || isJdk(type) || !classes.add(type)) {
			return;
		}
		if (type.isEnum()) {
			return;
		}
		if (type.isRecord()) {
			for (RecordComponent component : type.getRecordComponents()) {
				collect(component.getGenericType(), classes);
			}
			return;
		}
		for (Class<?> current = type; current != null && !isJdk(current); current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
					collect(field.getGenericType(), classes);
				}
			}
		}
	}

	private static boolean isConcrete(Class<?> type) {
		return !type.isInterface() && !Modifier.isAbstract(type.getModifiers());
	}

	private static boolean isJdk(Class<?> type) {
		String name = type.getName();
		return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
	}

}
