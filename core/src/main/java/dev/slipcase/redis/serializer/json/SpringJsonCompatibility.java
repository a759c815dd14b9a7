package dev.slipcase.redis.serializer.json;

import java.util.Set;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.netty.buffer.ByteBuf;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;
import tools.jackson.databind.jsontype.impl.DefaultTypeResolverBuilder;

/**
 * Reading values that Spring Data's {@code GenericJacksonJsonRedisSerializer}
 * ({@code RedisSerializer.json()}) wrote: JSON with {@code "@class"} properties on objects and
 * {@code ["java.util.ArrayList",[...]]} wrappers around collections and non-final values, so an
 * application can move to Slipcase without flushing Redis.
 * <p>
 * Such a value is recognised by its first bytes ({@link #isSpringTyped}) and read by a mapper
 * that expects type ids exactly where Spring's writes them, but that resolves them only through a
 * closed {@link PolymorphicTypeValidator}: the declared type itself, JDK value and collection
 * types, subtypes in the declared type's own package, and classes the caller allows. Any other
 * class name in the payload is refused before the class is loaded. Thread-safe.
 */
public final class SpringJsonCompatibility {

	/** The property Spring Data writes type ids in. */
	public static final String TYPE_PROPERTY = "@class";

	private static final Set<String> JDK_VALUE_TYPES = Set.of("java.lang.String", "java.lang.Boolean",
			"java.lang.Character", "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long",
			"java.lang.Float", "java.lang.Double", "java.math.BigDecimal", "java.math.BigInteger", "java.util.UUID",
			"java.util.Date", "java.util.ArrayList", "java.util.LinkedList", "java.util.HashMap",
			"java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet", "java.util.LinkedHashSet",
			"java.util.TreeSet", "java.time.Instant", "java.time.LocalDate", "java.time.LocalDateTime",
			"java.time.LocalTime", "java.time.OffsetDateTime", "java.time.ZonedDateTime", "java.time.Duration",
			"java.time.Period", "java.time.Year", "java.time.YearMonth", "java.time.MonthDay", "java.time.ZoneOffset");

	private SpringJsonCompatibility() {
	}

	/**
	 * Whether the readable bytes of {@code in} look like {@code GenericJacksonJsonRedisSerializer}
	 * output: an object whose first property is {@code "@class"}, or a
	 * {@code ["some.ClassName", [...] or {...}]} wrapper. Never changes {@code in}'s indexes.
	 */
	public static boolean isSpringTyped(ByteBuf in) {
		int end = in.writerIndex();
		int i = skipWhitespace(in, in.readerIndex(), end);
		if (i >= end) {
			return false;
		}
		byte first = in.getByte(i);
		if (first == '{') {
			i = skipWhitespace(in, i + 1, end);
			return matches(in, i, end, "\"" + TYPE_PROPERTY + "\"");
		}
		if (first == '[') {
			i = skipWhitespace(in, i + 1, end);
			if (i >= end || in.getByte(i) != '"') {
				return false;
			}
			int nameEnd = i + 1;
			boolean dotted = false;
			while (nameEnd < end && isClassNameByte(in.getByte(nameEnd))) {
				dotted |= in.getByte(nameEnd) == '.';
				nameEnd++;
			}
			if (!dotted || nameEnd >= end || in.getByte(nameEnd) != '"') {
				return false;
			}
			i = skipWhitespace(in, nameEnd + 1, end);
			if (i >= end || in.getByte(i) != ',') {
				return false;
			}
			i = skipWhitespace(in, i + 1, end);
			return i < end && (in.getByte(i) == '[' || in.getByte(i) == '{');
		}
		return false;
	}

	/**
	 * A mapper like {@code base} that reads Spring Data's typed JSON, resolving only the type ids
	 * the validator allows.
	 * @param allowedClassNames class names allowed in addition to the built-in rules
	 */
	public static JsonMapper mapper(JsonMapper base, Set<String> allowedClassNames) {
		PolymorphicTypeValidator validator = new ClosedTypeValidator(allowedClassNames);
		return base.rebuild()
			.setDefaultTyping(new SpringStyleTyping(validator))
			.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
			.build();
	}

	/** Whether {@code className} is one of the JDK value or collection types always allowed. */
	public static boolean isJdkValueType(String className) {
		return JDK_VALUE_TYPES.contains(className);
	}

	private static boolean matches(ByteBuf in, int index, int end, String text) {
		if (end - index < text.length()) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			if (in.getByte(index + i) != text.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	private static int skipWhitespace(ByteBuf in, int index, int end) {
		int i = index;
		while (i < end) {
			byte b = in.getByte(i);
			if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
				break;
			}
			i++;
		}
		return i;
	}

	private static boolean isClassNameByte(byte b) {
		return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '.' || b == '$'
				|| b == '_';
	}

	/**
	 * Type ids where Spring Data's {@code GenericJacksonJsonRedisSerializer} writes them: for
	 * {@code Object}, and for every type that is not an enum, a primitive or its wrapper, a final
	 * {@code java.*} type or a JSON tree; in an {@code "@class"} property, or a wrapper array for
	 * values that are not JSON objects.
	 */
	private static final class SpringStyleTyping extends DefaultTypeResolverBuilder {

		private static final long serialVersionUID = 1L;

		SpringStyleTyping(PolymorphicTypeValidator validator) {
			super(validator, DefaultTyping.NON_FINAL, JsonTypeInfo.As.PROPERTY, JsonTypeInfo.Id.CLASS, TYPE_PROPERTY);
		}

		@Override
		public boolean useForType(JavaType type) {
			if (type.isJavaLangObject()) {
				return true;
			}
			JavaType t = type;
			while (t.isArrayType() || t.isReferenceType()) {
				t = t.isArrayType() ? t.getContentType() : t.getReferencedType();
			}
			Class<?> raw = t.getRawClass();
			if (t.isEnumType() || raw.isPrimitive() || isWrapper(raw)) {
				return false;
			}
			if (t.isFinal() && raw.getPackageName().startsWith("java")) {
				return false;
			}
			return !tools.jackson.core.TreeNode.class.isAssignableFrom(raw);
		}

		private static boolean isWrapper(Class<?> raw) {
			return raw == Boolean.class || raw == Character.class || raw == Byte.class || raw == Short.class
					|| raw == Integer.class || raw == Long.class || raw == Float.class || raw == Double.class
					|| raw == Void.class;
		}

	}

	/** Allows a closed set of type ids; see the class javadoc. */
	private static final class ClosedTypeValidator extends PolymorphicTypeValidator {

		private static final long serialVersionUID = 1L;

		private final Set<String> allowed;

		ClosedTypeValidator(Set<String> allowed) {
			this.allowed = Set.copyOf(allowed);
		}

		@Override
		public Validity validateBaseType(DatabindContext ctxt, JavaType baseType) {
			return Validity.INDETERMINATE;
		}

		@Override
		public Validity validateSubClassName(DatabindContext ctxt, JavaType baseType, String subClassName) {
			Class<?> base = baseType.getRawClass();
			if (subClassName.equals(base.getName()) || JDK_VALUE_TYPES.contains(subClassName)
					|| this.allowed.contains(subClassName) || subClassName.startsWith("java.util.ImmutableCollections$")
					|| subClassName.startsWith("java.util.Collections$")) {
				return Validity.ALLOWED;
			}
			String basePackage = base.getPackageName();
			boolean applicationBase = base != Object.class && !basePackage.startsWith("java.")
					&& !basePackage.startsWith("javax.");
			if (applicationBase && subClassName.startsWith(basePackage + ".")
					&& subClassName.indexOf('.', basePackage.length() + 1) < 0) {
				return Validity.ALLOWED;
			}
			return Validity.DENIED;
		}

		@Override
		public Validity validateSubType(DatabindContext ctxt, JavaType baseType, JavaType subType) {
			return Validity.DENIED;
		}

	}

}
