package dev.slipcase.redis.near;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.cache.support.NullValue;

/**
 * Whether a decoded value can be handed to every reader as it is: nothing any reader does to it
 * can change what another reads. Strings, numbers, {@code java.time} values, enums, UUIDs, and
 * records, {@code List.of}/{@code Set.of}/{@code Map.of} collections and {@code Optional}s made
 * only of such values, to a depth of 16; anything else (an array, an {@code ArrayList}, a class
 * with setters) is not. A decoder usually makes mutable collections ({@code ArrayList}), so a
 * record with a list component read from JSON is not immutable. Thread-safe.
 */
public final class ImmutableValues {

	private static final int MAX_DEPTH = 16;

	private static final Set<Class<?>> SCALARS = Set.of(String.class, Boolean.class, Character.class, Byte.class,
			Short.class, Integer.class, Long.class, Float.class, Double.class, BigInteger.class, BigDecimal.class,
			UUID.class, Instant.class, LocalDate.class, LocalDateTime.class, LocalTime.class, OffsetDateTime.class,
			OffsetTime.class, ZonedDateTime.class, Duration.class, Period.class, Year.class, YearMonth.class,
			MonthDay.class, NullValue.class);

	/** Each record class's accessors, read once. */
	private static final Map<Class<?>, Method[]> ACCESSORS = new ConcurrentHashMap<>();

	private ImmutableValues() {
	}

	/** Whether {@code value} can be handed to every reader as it is. */
	public static boolean isImmutable(Object value) {
		return isImmutable(value, 0);
	}

	private static boolean isImmutable(Object value, int depth) {
		if (value == null) {
			return true;
		}
		if (depth > MAX_DEPTH) {
			return false;
		}
		Class<?> type = value.getClass();
		if (SCALARS.contains(type) || type.isEnum() || value instanceof Enum<?> || value instanceof ZoneId) {
			return true;
		}
		if (type.isRecord()) {
			for (Method accessor : accessors(type)) {
				if (!isImmutable(component(accessor, value), depth + 1)) {
					return false;
				}
			}
			return true;
		}
		if (value instanceof Optional<?> optional) {
			return optional.isEmpty() || isImmutable(optional.get(), depth + 1);
		}
		if (type.getName().startsWith("java.util.ImmutableCollections$")) {
			if (value instanceof Map<?, ?> map) {
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					if (!isImmutable(entry.getKey(), depth + 1) || !isImmutable(entry.getValue(), depth + 1)) {
						return false;
					}
				}
				return true;
			}
			for (Object element : (Collection<?>) value) {
				if (!isImmutable(element, depth + 1)) {
					return false;
				}
			}
			return true;
		}
		return false;
	}

	private static Method[] accessors(Class<?> record) {
		return ACCESSORS.computeIfAbsent(record, (type) -> {
			RecordComponent[] components = type.getRecordComponents();
			Method[] accessors = new Method[components.length];
			for (int i = 0; i < components.length; i++) {
				accessors[i] = components[i].getAccessor();
				accessors[i].trySetAccessible();
			}
			return accessors;
		});
	}

	private static Object component(Method accessor, Object record) {
		try {
			return accessor.invoke(record);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			// an accessor that cannot be read, or that throws: not known to be immutable
			return new Object();
		}
	}

}
