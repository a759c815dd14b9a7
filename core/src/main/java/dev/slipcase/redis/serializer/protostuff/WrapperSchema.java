package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;

import io.protostuff.Input;
import io.protostuff.Output;

/**
 * The root message for a value that is not a message itself (a {@code List}, a {@code Map}, a
 * scalar): the value is field 1.
 */
final class WrapperSchema extends MessageSchema {

	private final Slot slot;

	private final Class<?> type;

	WrapperSchema(Slot slot, Class<?> type) {
		this.slot = slot;
		this.type = type;
	}

	@Override
	public void writeTo(Output output, Object message) throws IOException {
		this.slot.write(output, 1, message, false);
	}

	@Override
	public Object newMessage() {
		return new Object[1];
	}

	@Override
	public void mergeFrom(Input input, Object message) throws IOException {
		Object[] value = (Object[]) message;
		for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
			if (number == 1) {
				value[0] = this.slot.read(input);
			}
			else {
				input.handleUnknownField(number, this);
			}
		}
	}

	@Override
	Object finish(Object holder) {
		Object value = ((Object[]) holder)[0];
		if (value == null) {
			throw new IllegalArgumentException("no value in the message");
		}
		return value;
	}

	@Override
	public Class<? super Object> typeClass() {
		return CollectionSchema.cast(this.type);
	}

}
