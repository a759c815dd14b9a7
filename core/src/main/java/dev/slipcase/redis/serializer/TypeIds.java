package dev.slipcase.redis.serializer;

import java.util.List;
import java.util.Locale;

import tools.jackson.databind.JavaType;

import org.springframework.util.Assert;

/**
 * Short type ids derived from an application's own type names, for values of several types
 * behind one serializer (a cache whose methods return different types): {@code Order},
 * {@code Order.Line} for a nested class, {@code List-Order} and {@code Map-String-List-Order} for
 * generic types. Never a package or class-loader name; the same type always gets the same id.
 * Ids longer than 64 characters are cut and end with a hash of the whole name.
 */
public final class TypeIds {

	private static final int MAX_LENGTH = 64;

	private TypeIds() {
	}

	/** The id of {@code type}. */
	public static String of(JavaType type) {
		Assert.notNull(type, "type must not be null");
		String id = name(type);
		if (id.length() > MAX_LENGTH) {
			id = id.substring(0, MAX_LENGTH - 9) + "-" + String.format(Locale.ROOT, "%08x", id.hashCode());
		}
		return id;
	}

	/**
	 * The id of {@code type}, made distinct from ids that another type already took by a short
	 * hash of its full name.
	 */
	public static String distinct(JavaType type) {
		String id = of(type);
		String suffix = String.format(Locale.ROOT, ":%08x", type.toCanonical().hashCode());
		return (id.length() + suffix.length() > MAX_LENGTH) ? id.substring(0, MAX_LENGTH - suffix.length()) + suffix
				: id + suffix;
	}

	private static String name(JavaType type) {
		Class<?> raw = type.getRawClass();
		if (raw.isArray()) {
			return name(type.getContentType()) + "-array";
		}
		String base = simpleName(raw);
		List<JavaType> parameters = type.getBindings().getTypeParameters();
		if (parameters.isEmpty()) {
			return base;
		}
		StringBuilder id = new StringBuilder(base);
		for (JavaType parameter : parameters) {
			id.append('-').append(name(parameter));
		}
		return id.toString();
	}

	private static String simpleName(Class<?> type) {
		if (type.isPrimitive()) {
			return type.getName();
		}
		String packageName = type.getPackageName();
		String name = packageName.isEmpty() ? type.getName() : type.getName().substring(packageName.length() + 1);
		return name.replace('$', '.');
	}

}
