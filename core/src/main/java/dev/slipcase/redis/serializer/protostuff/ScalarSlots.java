package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import io.protostuff.Input;
import io.protostuff.Output;
import org.jspecify.annotations.Nullable;

/**
 * Slots for values that are one protobuf scalar field: primitives and their wrappers,
 * {@code String}, {@code byte[]}, {@code BigDecimal}/{@code BigInteger}/{@code UUID} and
 * {@code java.time} types (as their ISO-8601 text; {@code Instant} as a small nested message of
 * seconds and nanos), and enums (by name, so reordering constants
 * keeps stored values readable).
 */
final class ScalarSlots {

	private static final Map<Class<?>, Slot> SLOTS = Map.ofEntries(
			Map.entry(int.class, new IntSlot()), Map.entry(Integer.class, new IntSlot()),
			Map.entry(long.class, new LongSlot()), Map.entry(Long.class, new LongSlot()),
			Map.entry(short.class, new ShortSlot()), Map.entry(Short.class, new ShortSlot()),
			Map.entry(byte.class, new ByteSlot()), Map.entry(Byte.class, new ByteSlot()),
			Map.entry(char.class, new CharSlot()), Map.entry(Character.class, new CharSlot()),
			Map.entry(boolean.class, new BooleanSlot()), Map.entry(Boolean.class, new BooleanSlot()),
			Map.entry(double.class, new DoubleSlot()), Map.entry(Double.class, new DoubleSlot()),
			Map.entry(float.class, new FloatSlot()), Map.entry(Float.class, new FloatSlot()),
			Map.entry(String.class, new StringSlot()), Map.entry(byte[].class, new ByteArraySlot()),
			Map.entry(BigDecimal.class, text(BigDecimal::new)),
			Map.entry(BigInteger.class, text(BigInteger::new)), Map.entry(UUID.class, text(UUID::fromString)),
			Map.entry(Instant.class, new MessageSlot(InstantSchema.INSTANCE)), Map.entry(LocalDate.class, text(LocalDate::parse)),
			Map.entry(LocalDateTime.class, text(LocalDateTime::parse)),
			Map.entry(LocalTime.class, text(LocalTime::parse)),
			Map.entry(OffsetDateTime.class, text(OffsetDateTime::parse)),
			Map.entry(ZonedDateTime.class, text(ZonedDateTime::parse)),
			Map.entry(Duration.class, text(Duration::parse)));

	private ScalarSlots() {
	}

	/** The slot for {@code type}, or {@code null} when it is not a scalar. */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	static @Nullable Slot forClass(Class<?> type) {
		if (type.isEnum()) {
			return new EnumSlot((Class) type);
		}
		return SLOTS.get(type);
	}

	/** The value of a primitive component that was not written: its default. */
	static @Nullable Object defaultValue(Class<?> type) {
		if (!type.isPrimitive()) {
			return null;
		}
		if (type == boolean.class) {
			return false;
		}
		if (type == char.class) {
			return (char) 0;
		}
		if (type == long.class) {
			return 0L;
		}
		if (type == double.class) {
			return 0.0d;
		}
		if (type == float.class) {
			return 0.0f;
		}
		if (type == short.class) {
			return (short) 0;
		}
		if (type == byte.class) {
			return (byte) 0;
		}
		return 0;
	}

	private static Slot text(Function<String, Object> parser) {
		return new TextSlot(parser);
	}

	private static final class IntSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeInt32(number, (Integer) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readInt32();
		}

	}

	private static final class LongSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeInt64(number, (Long) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readInt64();
		}

	}

	private static final class ShortSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeInt32(number, (Short) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			int value = input.readInt32();
			if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
				throw new IllegalArgumentException(value + " is out of range for a short");
			}
			return (short) value;
		}

	}

	private static final class ByteSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeInt32(number, (Byte) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			int value = input.readInt32();
			if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
				throw new IllegalArgumentException(value + " is out of range for a byte");
			}
			return (byte) value;
		}

	}

	private static final class CharSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeUInt32(number, (Character) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			int value = input.readUInt32();
			if (value < 0 || value > Character.MAX_VALUE) {
				throw new IllegalArgumentException(value + " is out of range for a char");
			}
			return (char) value;
		}

	}

	private static final class BooleanSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeBool(number, (Boolean) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readBool();
		}

	}

	private static final class DoubleSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeDouble(number, (Double) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readDouble();
		}

	}

	private static final class FloatSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeFloat(number, (Float) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readFloat();
		}

	}

	private static final class StringSlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeString(number, (String) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readString();
		}

	}

	private static final class ByteArraySlot extends Slot {

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeByteArray(number, (byte[]) value, repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return input.readByteArray();
		}

	}

	private static final class TextSlot extends Slot {

		private final Function<String, Object> parser;

		TextSlot(Function<String, Object> parser) {
			this.parser = parser;
		}

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeString(number, (value instanceof BigDecimal decimal) ? decimal.toString() : value.toString(),
					repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return this.parser.apply(input.readString());
		}

	}

	private static final class EnumSlot<E extends Enum<E>> extends Slot {

		private final Class<E> type;

		EnumSlot(Class<E> type) {
			this.type = type;
		}

		@Override
		void write(Output output, int number, Object value, boolean repeated) throws IOException {
			output.writeString(number, ((Enum<?>) value).name(), repeated);
		}

		@Override
		Object read(Input input) throws IOException {
			return Enum.valueOf(this.type, input.readString());
		}

	}

}
