package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.RandomAccess;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import io.protostuff.Input;
import io.protostuff.Output;
import org.jspecify.annotations.Nullable;

/**
 * A collection as a nested message: field 1 repeats each non-null element in iteration order;
 * field 2 holds the position of each {@code null} element, written where the element was, so an
 * empty collection (an empty message) stays distinct from a {@code null} one (no field).
 */
final class CollectionSchema extends MessageSchema {

	/** The kinds of collection read back. */
	enum Kind {

		LIST, SET, SORTED_SET

	}

	private final Slot element;

	private final Kind kind;

	private final Class<?> type;

	CollectionSchema(Slot element, Kind kind, Class<?> type) {
		this.element = element;
		this.kind = kind;
		this.type = type;
	}

	@Override
	public void writeTo(Output output, Object message) throws IOException {
		if (message instanceof List<?> list && message instanceof RandomAccess
				&& !(message instanceof CopyOnWriteArrayList)) {
			// by index: no iterator per list written (a copy-on-write list keeps its iterator's snapshot)
			for (int position = 0; position < list.size(); position++) {
				writeItem(output, position, list.get(position));
			}
			return;
		}
		int position = 0;
		for (Object item : (Collection<?>) message) {
			writeItem(output, position++, item);
		}
	}

	private void writeItem(Output output, int position, @Nullable Object item) throws IOException {
		if (item == null) {
			output.writeUInt32(2, position, true);
		}
		else {
			this.element.write(output, 1, item, true);
		}
	}

	@Override
	public Object newMessage() {
		return new ArrayList<>();
	}

	@Override
	@SuppressWarnings("unchecked")
	public void mergeFrom(Input input, Object message) throws IOException {
		ArrayList<Object> items = (ArrayList<Object>) message;
		for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
			if (number == 1) {
				items.add(this.element.read(input));
			}
			else if (number == 2) {
				int position = input.readUInt32();
				if (position != items.size()) {
					throw new IllegalArgumentException(
							"null element at position " + position + " where position " + items.size() + " was next");
				}
				items.add(null);
			}
			else {
				input.handleUnknownField(number, this);
			}
		}
	}

	@Override
	@SuppressWarnings("unchecked")
	Object finish(Object holder) {
		ArrayList<Object> items = (ArrayList<Object>) holder;
		return switch (this.kind) {
			case LIST -> items;
			case SET -> new LinkedHashSet<>(items);
			case SORTED_SET -> {
				if (items.contains(null)) {
					throw new IllegalArgumentException("null element in a sorted set");
				}
				yield new TreeSet<>(items);
			}
		};
	}

	@Override
	public Class<? super Object> typeClass() {
		return cast(this.type);
	}

	@SuppressWarnings("unchecked")
	static Class<? super Object> cast(Class<?> type) {
		return (Class<? super Object>) type;
	}

}
