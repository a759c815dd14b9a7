package dev.slipcase.redis.template;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

/**
 * Moves values of any size between Reactive Streams of {@link DataBuffer}s and Redis in chunks,
 * as {@link LargeValueTransfer} does between blocking streams (the same temporary key, scripts and
 * guarantees: readers see the old value or the new one, never a part; a download reads one
 * consistent copy), one command in flight at a time and no chunk requested before the subscriber
 * asks for it, so memory is bounded by a chunk or two, never the value.
 * <p>
 * Buffers: a download emits each chunk as the pooled Netty buffer Lettuce's reply was read into,
 * wrapped in a {@link NettyDataBuffer}, not copied; the subscriber releases it (as WebFlux does
 * once written). A chunk Reactor discards (the subscriber cancelled or failed with one in hand)
 * is released here. An upload takes ownership of each incoming buffer: a Netty one is written as
 * it is and released by its command; any other is copied into a buffer of the template's
 * allocator and released at once. However a transfer ends (done, failed, cancelled), its
 * temporary key is deleted, and a failed upload leaves the old value as it was.
 */
final class ReactiveLargeValueTransfer {

	private final AsyncValueTemplate<?> operations;

	private final CommandChannel<String, EncodedValue> channel;

	private final int chunkSize;

	private final NettyDataBufferFactory buffers;

	ReactiveLargeValueTransfer(AsyncValueTemplate<?> operations, int chunkSize) {
		this.operations = operations;
		this.channel = operations.channel();
		this.chunkSize = chunkSize;
		this.buffers = new NettyDataBufferFactory(operations.allocator);
	}

	Flux<DataBuffer> download(String key) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		// the temporary key is named per subscription, and deleted however the download ends
		return Flux.usingWhen(Mono.fromSupplier(() -> LargeValueKeys.temporaryKey(key, this.operations.cluster)),
				(temporary) -> snapshot(key, temporary).flatMapMany((length) -> chunks(key, temporary, length)),
				this::delete, (temporary, failure) -> delete(temporary), this::delete)
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.doOnDiscard(ValueLease.class, ValueLease::close);
	}

	/** Copies the key to {@code temporary}; its length, or -1 when there is no key. */
	private Mono<Long> snapshot(String key, String temporary) {
		return mono(() -> LargeValueKeys.snapshot(this.channel, key, temporary), "download", key);
	}

	private Flux<DataBuffer> chunks(String key, String temporary, long length) {
		// one GETRANGE in flight at a time, each sent only when the subscriber asks for its chunk
		// (ReactiveReplies sends on request: concatMap's next inner waits for demand)
		Flux<Long> offsets = Flux.generate(() -> 0L, (offset, sink) -> {
			if (offset < length) {
				sink.next(offset);
			}
			else {
				sink.complete();
			}
			return offset + this.chunkSize;
		});
		return offsets.concatMap((offset) -> chunk(key, temporary, offset, Math.min(offset + this.chunkSize, length)), 1);
	}

	private Mono<DataBuffer> chunk(String key, String temporary, long from, long to) {
		return mono(() -> this.operations.leaseRange(temporary, from, to - 1), "download", key)
			.switchIfEmpty(Mono.error(() -> LargeValueKeys.changed(key, temporary)))
			.handle((lease, sink) -> {
				try (lease) {
					if (lease.size() != to - from) {
						sink.error(LargeValueKeys.changed(key, temporary));
					}
					else {
						// the lease's reference goes to the DataBuffer, the subscriber's to release
						sink.next(this.buffers.wrap(lease.content().retain()));
					}
				}
			});
	}

	Mono<Void> upload(String key, Publisher<? extends DataBuffer> content) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		// the temporary key is named per subscription, and deleted when the upload fails or is cancelled
		return Mono.usingWhen(
				Mono.fromSupplier(() -> new Upload(key, LargeValueKeys.temporaryKey(key, this.operations.cluster))),
				(upload) -> create(upload)
					// no prefetch: no buffer waits in concatMap's queue, where a cancel racing a drain could
			// drop it or hand it out twice
			.thenMany(Flux.from(content).concatMap(upload::append, 0))
					.then(replace(key, upload.temporary)),
				(upload) -> Mono.empty(), (upload, failure) -> upload.abandon(), Upload::abandon)
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
	}

	/** {@code SET temporary "" PX ttl}: an upload of nothing stores an empty value. */
	private Mono<Long> create(Upload upload) {
		return mono(() -> this.operations.writeRaw(upload.temporary, EncodedValue.wrap(Unpooled.EMPTY_BUFFER),
				LargeValueKeys.TEMPORARY_TTL), "upload", upload.key);
	}

	/**
	 * One subscription's upload: its temporary key, the bytes written so far, and whether it was
	 * abandoned. Once abandoned, no chunk is sent any more: an operator may still subscribe to a
	 * chunk after the upload failed or was cancelled (concatMap does, racing its own error), and
	 * an {@code APPEND} sent after the temporary key's {@code DEL} would bring the key back, without
	 * expiry. Chunks in flight when it is abandoned are cancelled by the operator that sent them, so
	 * they are either written before the {@code DEL} or never.
	 */
	private final class Upload {

		final String key;

		final String temporary;

		private final AtomicLong written = new AtomicLong();

		private boolean abandoned;

		Upload(String key, String temporary) {
			this.key = key;
			this.temporary = temporary;
		}

		Mono<Void> append(DataBuffer buffer) {
			int size = buffer.readableByteCount();
			if (size == 0) {
				DataBufferUtils.release(buffer);
				return Mono.empty();
			}
			return mono(() -> send(buffer), "upload", this.key)
				.flatMap((length) -> (length == this.written.addAndGet(size)) ? Mono.<Void>empty()
						: Mono.error(new IllegalStateException("Temporary key '" + this.temporary + "' holds " + length
								+ " bytes after writing " + this.written.get() + ": it was changed by someone else")));
		}

		/** {@code APPEND}s the buffer, handing it over, unless the upload was abandoned; then releases it. */
		private synchronized CompletableFuture<Long> send(DataBuffer buffer) {
			if (this.abandoned) {
				DataBufferUtils.release(buffer);
				return CompletableFuture.failedFuture(new CancellationException("The upload of '" + this.key
						+ "' was abandoned"));
			}
			return ReactiveLargeValueTransfer.this.operations.writeRaw(this.temporary, EncodedValue.wrap(owned(buffer)),
					null);
		}

		/** Sends no chunk from now on, and deletes the temporary key. */
		Mono<Void> abandon() {
			synchronized (this) {
				this.abandoned = true;
			}
			return delete(this.temporary);
		}

	}

	/** The bytes of {@code buffer} in a Netty buffer whose one reference the caller owns; {@code buffer} is handed over. */
	private ByteBuf owned(DataBuffer buffer) {
		if (buffer instanceof NettyDataBuffer netty) {
			return netty.getNativeBuffer();
		}
		try {
			ByteBuf copy = this.operations.allocator.buffer(buffer.readableByteCount());
			try (DataBuffer.ByteBufferIterator parts = buffer.readableByteBuffers()) {
				parts.forEachRemaining(copy::writeBytes);
				return copy;
			}
			catch (RuntimeException ex) {
				copy.release();
				throw ex;
			}
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	private Mono<Void> replace(String key, String temporary) {
		return mono(() -> LargeValueKeys.replace(this.channel, key, temporary), "upload", key).then();
	}

	/** Deletes the temporary key, keeping any failure to itself: the key expires on its own. */
	private Mono<Void> delete(String temporary) {
		return mono(() -> this.operations.delete(temporary), "delete", temporary).onErrorResume((ignored) -> Mono.empty())
			.then();
	}

	private <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, String action, Object key) {
		return this.channel.mono(send, action, key);
	}

}
