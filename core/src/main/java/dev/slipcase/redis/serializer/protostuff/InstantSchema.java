package dev.slipcase.redis.serializer.protostuff;

import java.io.IOException;
import java.time.Instant;

import io.protostuff.Input;
import io.protostuff.Output;

/**
 * An {@code Instant} as a nested message: field 1 the epoch second ({@code int64}), field 2 the
 * nanosecond of the second ({@code int32}), each absent when zero. Smaller than its ISO-8601 text
 * and read without parsing. Reading collects the two parts in an array of the reading thread's,
 * reused for every instant it reads (an instant holds no nested message, so one is never read
 * inside another).
 */
final class InstantSchema extends MessageSchema {

	static final InstantSchema INSTANCE = new InstantSchema();

	private static final ThreadLocal<long[]> PARTS = ThreadLocal.withInitial(() -> new long[2]);

	private InstantSchema() {
	}

	@Override
	public void writeTo(Output output, Object message) throws IOException {
		Instant instant = (Instant) message;
		if (instant.getEpochSecond() != 0) {
			output.writeInt64(1, instant.getEpochSecond(), false);
		}
		if (instant.getNano() != 0) {
			output.writeInt32(2, instant.getNano(), false);
		}
	}

	@Override
	public Object newMessage() {
		long[] parts = PARTS.get();
		parts[0] = 0;
		parts[1] = 0;
		return parts;
	}

	@Override
	public void mergeFrom(Input input, Object message) throws IOException {
		long[] parts = (long[]) message;
		for (int number = input.readFieldNumber(this); number != 0; number = input.readFieldNumber(this)) {
			if (number == 1) {
				parts[0] = input.readInt64();
			}
			else if (number == 2) {
				parts[1] = input.readInt32();
			}
			else {
				input.handleUnknownField(number, this);
			}
		}
	}

	@Override
	Object finish(Object holder) {
		long[] parts = (long[]) holder;
		if (parts[1] < 0 || parts[1] > 999_999_999) {
			throw new IllegalArgumentException("nanosecond " + parts[1] + " out of range");
		}
		return Instant.ofEpochSecond(parts[0], parts[1]);
	}

	@Override
	public Class<? super Object> typeClass() {
		return CollectionSchema.cast(Instant.class);
	}

}
