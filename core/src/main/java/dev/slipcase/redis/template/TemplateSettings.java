package dev.slipcase.redis.template;

import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.micrometer.observation.ObservationRegistry;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.jspecify.annotations.Nullable;

/**
 * Everything a view of a {@link ValueTemplate} may change, in one place: each {@code with...}
 * copies the settings with one field changed, so that a view of a view keeps every setting it did
 * not change.
 *
 * @param database the database commands go to
 * @param format the format of values
 * @param allocator where values are encoded, and leases and caller-thread decoding copy replies to
 * @param chunkSize the chunk size of {@code upload} and {@code download}
 * @param transferWindow the chunks a reactive {@code upload} or {@code download} holds at most
 * @param callerDecodeFrom the reply size from which sync reads decode on the caller's thread, in
 * bytes: {@code 0} always, {@link Integer#MAX_VALUE} never
 * @param observations where each command is observed; {@link ObservationRegistry#NOOP} for none
 * @param unacknowledgedWrites what happens to a write whose reply was lost with its connection
 * @param near the near tier reads go through, or {@code null}: only for the format and database
 * it was given with, so changing either drops it
 * @param <V> the type of values
 */
record TemplateSettings<V>(int database, ValueFormat<V> format, ByteBufAllocator allocator, int chunkSize,
		int transferWindow, int callerDecodeFrom, ObservationRegistry observations, UnacknowledgedWrites unacknowledgedWrites,
		@Nullable NearCache near) {

	/** The default chunk size of large-value transfers. */
	static final int DEFAULT_CHUNK_SIZE = 256 * 1024;

	/**
	 * The default reply size from which sync reads decode on the caller's thread: parsing a value
	 * this size takes tens of microseconds, far more than copying it, and would otherwise hold up
	 * every other reply on the connection's one event loop.
	 */
	static final int DEFAULT_CALLER_DECODE_FROM = 16 * 1024;

	TemplateSettings {
		if (chunkSize < 1) {
			throw new IllegalArgumentException("chunkSize must be at least 1, was " + chunkSize);
		}
		if (transferWindow < 1) {
			throw new IllegalArgumentException("transferWindow must be at least 1, was " + transferWindow);
		}
		if (callerDecodeFrom < 0) {
			throw new IllegalArgumentException("callerDecodeFrom must not be negative, was " + callerDecodeFrom);
		}
	}

	/** {@code format} in {@code database}, with Netty's pooled allocator and the other defaults. */
	static <V> TemplateSettings<V> of(int database, ValueFormat<V> format) {
		return new TemplateSettings<>(database, format, PooledByteBufAllocator.DEFAULT, DEFAULT_CHUNK_SIZE,
				ReactiveLargeValueTransfer.DEFAULT_WINDOW, DEFAULT_CALLER_DECODE_FROM, ObservationRegistry.NOOP,
				UnacknowledgedWrites.FAIL, null);
	}

	TemplateSettings<V> withDatabase(int database) {
		return new TemplateSettings<>(database, this.format, this.allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites,
				(database == this.database) ? this.near : null);
	}

	<T> TemplateSettings<T> withFormat(ValueFormat<T> format) {
		return new TemplateSettings<>(this.database, format, this.allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites, null);
	}

	TemplateSettings<V> withAllocator(ByteBufAllocator allocator) {
		return new TemplateSettings<>(this.database, this.format, allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites, this.near);
	}

	TemplateSettings<V> withChunkSize(int chunkSize) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites, this.near);
	}

	TemplateSettings<V> withTransferWindow(int transferWindow) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites, this.near);
	}

	TemplateSettings<V> withObservations(ObservationRegistry observations) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, observations, this.unacknowledgedWrites, this.near);
	}

	TemplateSettings<V> withCallerDecodeFrom(int callerDecodeFrom) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, this.transferWindow,
				callerDecodeFrom, this.observations, this.unacknowledgedWrites, this.near);
	}

	TemplateSettings<V> withNear(NearCache near) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, this.unacknowledgedWrites, near);
	}

	/** The near tier of this view's reads, or {@code null}. */
	@Nullable NearValues<V> nearValues() {
		return (this.near != null) ? new NearValues<>(this.near, this.format) : null;
	}

	TemplateSettings<V> withUnacknowledgedWrites(UnacknowledgedWrites unacknowledgedWrites) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, this.transferWindow,
				this.callerDecodeFrom, this.observations, unacknowledgedWrites, this.near);
	}

}
