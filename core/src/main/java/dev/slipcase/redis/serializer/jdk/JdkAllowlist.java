package dev.slipcase.redis.serializer.jdk;

import java.io.Serializable;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.slipcase.redis.serializer.fory.ForyTypes;

import org.springframework.util.Assert;

/**
 * The closed set of classes a JDK-serialized value may name, by class name: a stream naming any
 * other class is refused before the class is loaded. Built from what the application declares
 * (the types it caches, the types a session holds) and the JDK's value and collection types,
 * never open. Immutable and thread-safe; build with {@link #builder()}.
 */
public final class JdkAllowlist {

	/**
	 * The JDK's value and collection classes as they appear in a stream: immutable collections and
	 * {@code java.time} values are written through their serial proxies ({@code CollSer},
	 * {@code Ser}), and superclasses that are themselves serializable appear too.
	 */
	private static final List<String> JDK_VALUE_CLASSES = List.of("java.lang.String", "java.lang.Boolean",
			"java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
			"java.lang.Double", "java.lang.Character", "java.lang.Number", "java.lang.Enum", "java.math.BigDecimal",
			"java.math.BigInteger", "java.time.Ser", "java.util.UUID", "java.util.Locale", "java.util.Date",
			"java.util.Currency", "java.net.URI", "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque",
			"java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet",
			"java.util.LinkedHashSet", "java.util.TreeSet", "java.util.EnumMap", "java.util.EnumSet$SerializationProxy",
			"java.util.CollSer", "java.util.Arrays$ArrayList", "java.util.Collections$UnmodifiableCollection",
			"java.util.Collections$UnmodifiableList", "java.util.Collections$UnmodifiableRandomAccessList",
			"java.util.Collections$UnmodifiableSet", "java.util.Collections$UnmodifiableSortedSet",
			"java.util.Collections$UnmodifiableNavigableSet", "java.util.Collections$UnmodifiableMap",
			"java.util.Collections$UnmodifiableSortedMap", "java.util.Collections$UnmodifiableNavigableMap",
			"java.util.Collections$EmptyList", "java.util.Collections$EmptySet", "java.util.Collections$EmptyMap",
			"java.util.Collections$SingletonList", "java.util.Collections$SingletonSet",
			"java.util.Collections$SingletonMap", "java.util.Collections$ReverseComparator",
			"java.lang.String$CaseInsensitiveComparator", "java.util.concurrent.CopyOnWriteArrayList");

	/**
	 * What the serial proxies and collections above resolve to, which the JDK checks once more
	 * after {@code readResolve}, and the arrays hash maps and sets size before they fill them.
	 */
	private static final List<String> JDK_RESOLVED_CLASSES = List.of("java.time.Instant", "java.time.LocalDate",
			"java.time.LocalTime", "java.time.LocalDateTime", "java.time.OffsetTime", "java.time.OffsetDateTime",
			"java.time.ZonedDateTime", "java.time.Duration", "java.time.Period", "java.time.Year",
			"java.time.YearMonth", "java.time.MonthDay", "java.time.ZoneOffset", "java.time.ZoneRegion",
			"java.util.ImmutableCollections$List12", "java.util.ImmutableCollections$ListN",
			"java.util.ImmutableCollections$Set12", "java.util.ImmutableCollections$SetN",
			"java.util.ImmutableCollections$Map1", "java.util.ImmutableCollections$MapN", "java.util.RegularEnumSet",
			"java.util.JumboEnumSet", "java.util.Map$Entry");

	/** What an exception held in a value brings along: its JDK superclasses and stack trace. */
	private static final List<String> JDK_THROWABLE_CLASSES = List.of("java.lang.Throwable", "java.lang.Exception",
			"java.lang.RuntimeException", "java.lang.StackTraceElement");

	private final Set<String> classNames;

	private JdkAllowlist(Set<String> classNames) {
		this.classNames = Collections.unmodifiableSet(new TreeSet<>(classNames));
	}

	/** A builder of an allowlist that allows nothing yet. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Whether a stream may name the class {@code className}, as {@code Class.getName()} spells it;
	 * an array is allowed when its component is (any primitive array is).
	 */
	public boolean allows(String className) {
		String name = className;
		while (name.startsWith("[")) {
			name = name.substring(1);
		}
		if (name.length() != className.length()) {
			if (name.length() == 1) {
				return "ZBCSIJFD".contains(name);
			}
			if (!name.startsWith("L") || !name.endsWith(";")) {
				return false;
			}
			name = name.substring(1, name.length() - 1);
			return "java.lang.Object".equals(name) || this.classNames.contains(name);
		}
		return this.classNames.contains(name);
	}

	/** The allowed class names, sorted; arrays of them are allowed too. */
	public Set<String> classNames() {
		return this.classNames;
	}

	@Override
	public String toString() {
		return "JdkAllowlist" + this.classNames;
	}

	/** Collects the allowed classes; not thread-safe. */
	public static final class Builder {

		private final Set<String> classNames = new HashSet<>();

		private final Set<Class<?>> walked = new HashSet<>();

		private Builder() {
		}

		/** Allows the JDK's boxed primitives, strings, numbers, {@code java.time} values, UUIDs and collections. */
		public Builder allowJdkValueTypes() {
			this.classNames.addAll(JDK_VALUE_CLASSES);
			this.classNames.addAll(JDK_RESOLVED_CLASSES);
			return this;
		}

		/** Allows the JDK's exception superclasses and stack traces, for values that hold an allowed exception. */
		public Builder allowJdkThrowables() {
			this.classNames.addAll(JDK_THROWABLE_CLASSES);
			return this;
		}

		/** Allows exactly {@code type}, none of what its fields hold. */
		public Builder allow(Class<?> type) {
			Assert.notNull(type, "type must not be null");
			this.classNames.add(type.getName());
			return this;
		}

		/** Allows exactly the class named {@code className}, which need not be loadable. */
		public Builder allow(String className) {
			Assert.hasText(className, "className must not be empty");
			this.classNames.add(className.trim());
			return this;
		}

		/**
		 * Allows {@code type} and what its instances hold as the application declares it: the
		 * application classes its record components and fields declare, their type arguments,
		 * recursively ({@code ForyTypes.reachableFrom}), the permitted subclasses of a sealed one,
		 * and the serializable superclasses of each. JDK classes met on the way are not added:
		 * {@link #allowJdkValueTypes()} decides those.
		 * @param type a class or a generic type, such as {@code List<Order>}
		 */
		public Builder allowDeclared(Type type) {
			Assert.notNull(type, "type must not be null");
			for (Class<?> reached : ForyTypes.reachableFrom(List.of(type)).keySet()) {
				if (!isJdk(reached) && this.walked.add(reached)) {
					for (Class<?> declaring = reached; declaring != null && !isJdk(declaring); declaring = declaring
						.getSuperclass()) {
						if (Serializable.class.isAssignableFrom(declaring)) {
							this.classNames.add(declaring.getName());
						}
					}
					if (reached.isSealed()) {
						for (Class<?> permitted : reached.getPermittedSubclasses()) {
							allowDeclared(permitted);
						}
					}
				}
			}
			return this;
		}

		private static boolean isJdk(Class<?> type) {
			String name = type.getName();
			return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
					|| name.startsWith("sun.") || name.startsWith("com.sun.");
		}

		/** The allowlist of every class allowed so far. */
		public JdkAllowlist build() {
			return new JdkAllowlist(this.classNames);
		}

	}

}
