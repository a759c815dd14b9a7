package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Optional;

import io.protostuff.Input;
import io.protostuff.Output;
import org.jspecify.annotations.Nullable;

/**
 * A record as a message: component {@code i} (in declaration order) is field {@code i + 1}, and
 * is absent when {@code null} (or an empty {@code Optional}). Reading fills an array of
 * component values and calls the canonical constructor, so a record's own validation runs on
 * every value read. New components may be appended; existing ones must keep their position.
 */
final class RecordSchema extends MessageSchema {

	private final Class<?> type;

	private Component[] components = new Component[0];

	private @Nullable Constructor<?> constructor;

	RecordSchema(Class<?> type) {
		this.type = type;
	}

	/** Completes the schema; separate from construction so that recursive records resolve. */
	void init(Component[] components, Constructor<?> constructor) {
		this.components = components;
		this.constructor = constructor;
	}

	@Override
	public void writeTo(Output output, Object message) throws IOException {
		Component[] components = this.components;
		for (int i = 0; i < components.length; i++) {
			Object value = components[i].get(message);
			if (value != null) {
				components[i].slot.write(output, i + 1, value, false);
			}
		}
	}

	@Override
	public Object newMessage() {
		return new Object[this.components.length];
	}

	@Override
	public void mergeFrom(Input input, Object message) throws IOException {
		Object[] values = (Object[]) message;
		for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
			if (number <= values.length) {
				values[number - 1] = this.components[number - 1].slot.read(input);
			}
			else {
				input.handleUnknownField(number, this);
			}
		}
	}

	@Override
	Object finish(Object holder) {
		Object[] values = (Object[]) holder;
		Component[] components = this.components;
		for (int i = 0; i < components.length; i++) {
			values[i] = components[i].wrap(values[i]);
		}
		try {
			return this.constructor.newInstance(values);
		}
		catch (InvocationTargetException ex) {
			throw new IllegalArgumentException(this.type.getName() + " refused the values read: "
					+ ex.getTargetException().getMessage(), ex.getTargetException());
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("cannot construct " + this.type.getName(), ex);
		}
	}

	@Override
	public Class<? super Object> typeClass() {
		return CollectionSchema.cast(this.type);
	}

	/**
	 * One record component: its accessor and how its value is written. The accessor is called
	 * through a method handle, which, unlike {@code Method.invoke}, allocates no argument array.
	 */
	static final class Component {

		private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);

		private final String name;

		private final Class<?> record;

		private final MethodHandle accessor;

		final Slot slot;

		private final boolean optional;

		private final @Nullable Object absent;

		/**
		 * @param component the component, whose accessor the caller has made accessible
		 * @throws IllegalAccessException when the accessor cannot be called after all
		 */
		Component(RecordComponent component, Slot slot, boolean optional) throws IllegalAccessException {
			this.name = component.getName();
			this.record = component.getDeclaringRecord();
			this.accessor = MethodHandles.lookup().unreflect(component.getAccessor()).asType(GETTER);
			this.slot = slot;
			this.optional = optional;
			this.absent = optional ? Optional.empty() : ScalarSlots.defaultValue(component.getType());
		}

		@Nullable Object get(Object record) {
			Object value;
			try {
				value = (Object) this.accessor.invokeExact(record);
			}
			catch (Throwable ex) {
				if (!this.record.isInstance(record)) {
					throw new IllegalArgumentException("a " + record.getClass().getName() + " where a "
							+ this.record.getName() + " is declared", ex);
				}
				throw new IllegalStateException("accessor " + this.name + "() threw", ex);
			}
			if (this.optional && value != null) {
				return ((Optional<?>) value).orElse(null);
			}
			return value;
		}

		@Nullable Object wrap(@Nullable Object value) {
			if (value == null) {
				return this.absent;
			}
			return this.optional ? Optional.of(value) : value;
		}

	}

}
