package dev.slipcase.redis.template;

import dev.slipcase.redis.serializer.ValueFormat;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Everything a view of a {@link ValueTemplate} may change, in one place: each {@code with...}
 * copies the settings with one field changed, so that a view of a view keeps every setting it did
 * not change.
 *
 * @param database the database commands go to
 * @param format the format of values
 * @param allocator where values are encoded, and leases and caller-thread decoding copy replies to
 * @param chunkSize the chunk size of {@code upload} and {@code download}
 * @param callerThreadDecoding whether the sync reads decode on the caller's thread
 * @param <V> the type of values
 */
record TemplateSettings<V>(int database, ValueFormat<V> format, ByteBufAllocator allocator, int chunkSize,
		boolean callerThreadDecoding) {

	/** The default chunk size of large-value transfers. */
	static final int DEFAULT_CHUNK_SIZE = 256 * 1024;

	/** {@code format} in {@code database}, with Netty's pooled allocator and the other defaults. */
	static <V> TemplateSettings<V> of(int database, ValueFormat<V> format) {
		return new TemplateSettings<>(database, format, PooledByteBufAllocator.DEFAULT, DEFAULT_CHUNK_SIZE, false);
	}

	TemplateSettings<V> withDatabase(int database) {
		return new TemplateSettings<>(database, this.format, this.allocator, this.chunkSize, this.callerThreadDecoding);
	}

	<T> TemplateSettings<T> withFormat(ValueFormat<T> format) {
		return new TemplateSettings<>(this.database, format, this.allocator, this.chunkSize, this.callerThreadDecoding);
	}

	TemplateSettings<V> withAllocator(ByteBufAllocator allocator) {
		return new TemplateSettings<>(this.database, this.format, allocator, this.chunkSize, this.callerThreadDecoding);
	}

	TemplateSettings<V> withChunkSize(int chunkSize) {
		return new TemplateSettings<>(this.database, this.format, this.allocator, chunkSize, this.callerThreadDecoding);
	}

	TemplateSettings<V> withCallerThreadDecoding() {
		return new TemplateSettings<>(this.database, this.format, this.allocator, this.chunkSize, true);
	}

}
