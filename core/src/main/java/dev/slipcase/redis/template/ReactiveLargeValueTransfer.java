package dev.slipcase.redis.template;

import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;
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
 * consistent copy), up to {@link #IN_FLIGHT} chunk commands pipelined and no chunk read further
 * ahead of the subscriber than that, so memory is bounded by a few chunks, never the value.
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

	/**
	 * The chunk commands of one transfer pipelined at once: {@code GETRANGE}s read ahead of the
	 * subscriber, {@code APPEND}s written while the ones before them await their replies. One at a
	 * time, each chunk costs a round trip; a few in flight keep the connection busy, with memory
	 * bounded by that many chunks.
	 */
	static final int IN_FLIGHT = 8;

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
		Flux<Long> offsets = Flux.generate(() -> 0L, (offset, sink) -> {
			if (offset < length) {
				sink.next(offset);
			}
			else {
				sink.complete();
			}
			return offset + this.chunkSize;
		});
		// each chunk taken when the subscriber asks for it (ReactiveReplies sends on request:
		// concatMap's next inner waits for demand), from GETRANGEs the read-ahead sent before
		return Flux.using(() -> new ReadAhead(temporary, length),
				(ahead) -> offsets.concatMap((offset) -> chunk(key, temporary, offset,
						Math.min(offset + this.chunkSize, length), ahead), 1),
				ReadAhead::close);
	}

	private Mono<DataBuffer> chunk(String key, String temporary, long from, long to, ReadAhead ahead) {
		return mono(() -> ahead.take(from), "download", key)
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

	/**
	 * The {@code GETRANGE}s of one download sent ahead of the subscriber: taking a chunk tops the
	 * window up to {@link #IN_FLIGHT} chunks beyond it, so the connection streams while the
	 * subscriber works, and no chunk is read further ahead than that. The window owns the leases
	 * of the chunks not yet taken: {@link #close()} (the download ended, failed or was cancelled)
	 * cancels them and closes those already read.
	 */
	private final class ReadAhead {

		private final String temporary;

		private final long length;

		private final ArrayDeque<CompletableFuture<@Nullable ValueLease>> sent = new ArrayDeque<>(IN_FLIGHT + 1);

		private long nextOffset;

		private long takeOffset;

		private boolean closed;

		ReadAhead(String temporary, long length) {
			this.temporary = temporary;
			this.length = length;
		}

		/** The chunk at {@code offset}, the next one in order, and the window topped up behind it. */
		synchronized CompletableFuture<@Nullable ValueLease> take(long offset) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new CancellationException("The download was abandoned"));
			}
			if (offset != this.takeOffset) {
				return CompletableFuture.failedFuture(new IllegalStateException("Chunk at " + offset
						+ " asked for where the one at " + this.takeOffset + " is next"));
			}
			if (this.sent.isEmpty()) {
				send();
			}
			CompletableFuture<@Nullable ValueLease> next = this.sent.poll();
			this.takeOffset += ReactiveLargeValueTransfer.this.chunkSize;
			while (this.sent.size() < IN_FLIGHT && this.nextOffset < this.length) {
				send();
			}
			return next;
		}

		private void send() {
			long from = this.nextOffset;
			long to = Math.min(from + ReactiveLargeValueTransfer.this.chunkSize, this.length);
			this.sent.add(ReactiveLargeValueTransfer.this.operations.leaseRange(this.temporary, from, to - 1));
			this.nextOffset = from + ReactiveLargeValueTransfer.this.chunkSize;
		}

		/** Sends nothing more; cancels the chunks not taken, closing those already read. */
		synchronized void close() {
			this.closed = true;
			for (CompletableFuture<@Nullable ValueLease> chunk : this.sent) {
				chunk.cancel(false);
				chunk.thenAccept((lease) -> {
					if (lease != null) {
						lease.close();
					}
				});
			}
			this.sent.clear();
		}

	}

	Mono<Void> upload(String key, Publisher<? extends DataBuffer> content) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		// the temporary key is named per subscription, and deleted when the upload fails or is cancelled
		return Mono.usingWhen(
				Mono.fromSupplier(() -> new Upload(key, LargeValueKeys.temporaryKey(key, this.operations.cluster))),
				(upload) -> create(upload)
					// each incoming buffer becomes its APPEND at once, sent in the order the buffers
					// came (the connection keeps it), up to IN_FLIGHT of them pipelined
			.thenMany(Flux.from(content).flatMap(upload::append, IN_FLIGHT, 1))
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
			// the buffer goes to its APPEND when the command is sent; cancelled before that, it is
			// released here: exactly one of the two takes it
			AtomicBoolean taken = new AtomicBoolean();
			return mono(() -> taken.compareAndSet(false, true) ? send(buffer)
					: CompletableFuture.failedFuture(new CancellationException("The chunk was cancelled")), "upload",
					this.key)
				.doFinally((signal) -> {
					if (taken.compareAndSet(false, true)) {
						DataBufferUtils.release(buffer);
					}
				})
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
