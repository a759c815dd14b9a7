package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;

import io.protostuff.Input;
import io.protostuff.Output;
import io.protostuff.Schema;

/** A value written as a nested message with its own schema. */
final class MessageSlot extends Slot {

	private final Schema<Object> schema;

	MessageSlot(Schema<Object> schema) {
		this.schema = schema;
	}

	@Override
	void write(Output output, int number, Object value, boolean repeated) throws IOException {
		output.writeObject(number, value, this.schema, repeated);
	}

	@Override
	Object read(Input input) throws IOException {
		Object holder = input.mergeObject(null, this.schema);
		return (this.schema instanceof MessageSchema messageSchema) ? messageSchema.finish(holder) : holder;
	}

}
