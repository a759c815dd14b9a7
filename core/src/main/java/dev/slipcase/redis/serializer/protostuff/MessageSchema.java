package dev.slipcase.redis.serializer.protostuff;

import io.protostuff.Schema;

/**
 * A protostuff {@link Schema} whose {@code newMessage()} may be a mutable holder rather than the
 * value (records are immutable), with {@link #finish} turning a merged holder into the value.
 * {@code writeTo} always takes the value itself.
 */
abstract class MessageSchema implements Schema<Object> {

	/** Turns a holder returned by {@code newMessage()} and filled by {@code mergeFrom} into the value. */
	abstract Object finish(Object holder);

	@Override
	public String getFieldName(int number) {
		return Integer.toString(number);
	}

	@Override
	public int getFieldNumber(String name) {
		try {
			return Integer.parseInt(name);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	@Override
	public boolean isInitialized(Object message) {
		return true;
	}

	@Override
	public String messageFullName() {
		return typeClass().getName();
	}

	@Override
	public String messageName() {
		return typeClass().getSimpleName();
	}

}
