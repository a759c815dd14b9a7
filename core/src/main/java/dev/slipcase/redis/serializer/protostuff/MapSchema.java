package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.protostuff.Input;
import io.protostuff.Output;

/**
 * A map as a nested message: field 1 repeats one entry message per entry, in iteration order,
 * whose field 1 is the key and field 2 the value (each absent when {@code null}).
 */
final class MapSchema extends MessageSchema {

	private final EntrySchema entries;

	private final boolean sorted;

	private final Class<?> type;

	MapSchema(Slot key, Slot value, boolean sorted, Class<?> type) {
		this.entries = new EntrySchema(key, value);
		this.sorted = sorted;
		this.type = type;
	}

	@Override
	public void writeTo(Output output, Object message) throws IOException {
		for (Map.Entry<?, ?> entry : ((Map<?, ?>) message).entrySet()) {
			output.writeObject(1, entry, this.entries, true);
		}
	}

	@Override
	public Object newMessage() {
		return this.sorted ? new TreeMap<>() : new LinkedHashMap<>();
	}

	@Override
	@SuppressWarnings("unchecked")
	public void mergeFrom(Input input, Object message) throws IOException {
		Map<Object, Object> map = (Map<Object, Object>) message;
		for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
			if (number == 1) {
				Object[] entry = (Object[]) input.mergeObject(null, this.entries);
				if (this.sorted && entry[0] == null) {
					throw new IllegalArgumentException("null key in a sorted map");
				}
				map.put(entry[0], entry[1]);
			}
			else {
				input.handleUnknownField(number, this);
			}
		}
	}

	@Override
	Object finish(Object holder) {
		return holder;
	}

	@Override
	public Class<? super Object> typeClass() {
		return CollectionSchema.cast(this.type);
	}

	private static final class EntrySchema extends MessageSchema {

		private final Slot key;

		private final Slot value;

		EntrySchema(Slot key, Slot value) {
			this.key = key;
			this.value = value;
		}

		@Override
		public void writeTo(Output output, Object message) throws IOException {
			Map.Entry<?, ?> entry = (Map.Entry<?, ?>) message;
			if (entry.getKey() != null) {
				this.key.write(output, 1, entry.getKey(), false);
			}
			if (entry.getValue() != null) {
				this.value.write(output, 2, entry.getValue(), false);
			}
		}

		@Override
		public Object newMessage() {
			return new Object[2];
		}

		@Override
		public void mergeFrom(Input input, Object message) throws IOException {
			Object[] entry = (Object[]) message;
			for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
				if (number == 1) {
					entry[0] = this.key.read(input);
				}
				else if (number == 2) {
					entry[1] = this.value.read(input);
				}
				else {
					input.handleUnknownField(number, this);
				}
			}
		}

		@Override
		Object finish(Object holder) {
			return holder;
		}

		@Override
		public Class<? super Object> typeClass() {
			return CollectionSchema.cast(Map.Entry.class);
		}

	}

}
