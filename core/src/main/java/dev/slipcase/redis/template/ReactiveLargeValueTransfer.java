package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
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
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

/**
 * Moves values of any size between Reactive Streams of {@link DataBuffer}s and Redis in chunks,
 * as {@link LargeValueTransfer} does between blocking streams (the same temporary key, scripts and
 * guarantees: readers see the old value or the new one, never a part; a download reads one
 * consistent copy). Memory is bounded by the transfer's window of chunks, never the value, and
 * never what the subscriber requests: a download holds at most {@code window} chunks read from
 * Redis whose buffers were not yet released (WebFlux releases each once written to the socket, so
 * a client that stops reading stops the download); an upload gathers the incoming buffers into
 * chunk-sized {@code APPEND}s, at most {@code window} of them in flight.
 * <p>
 * Buffers: a download emits each chunk as the pooled buffer its reply was copied into, wrapped in
 * a {@link NettyDataBuffer}; the subscriber releases it. A chunk Reactor discards (the subscriber
 * cancelled or failed with one in hand) is released here. An upload takes ownership of each
 * incoming buffer: its bytes are copied into the chunk being gathered, a buffer of the template's
 * allocator, and it is released at once; each chunk is released by its command. However a
 * transfer ends (done, failed, cancelled), its temporary key is deleted, and a failed upload
 * leaves the old value as it was.
 */
final class ReactiveLargeValueTransfer {

	/** The default window: chunk commands pipelined, and chunks a transfer holds at most. */
	static final int DEFAULT_WINDOW = 8;

	private final AsyncValueTemplate<?> operations;

	private final CommandChannel<String, EncodedValue> channel;

	private final int chunkSize;

	private final int window;

	private final NettyDataBufferFactory buffers;

	ReactiveLargeValueTransfer(AsyncValueTemplate<?> operations, int chunkSize, int window) {
		this.operations = operations;
		this.channel = operations.channel();
		this.chunkSize = chunkSize;
		this.window = window;
		this.buffers = new NettyDataBufferFactory(operations.allocator);
	}

	/**
	 * Copies the key to a temporary key (one round trip): its {@link Download}, or empty when
	 * there is no key. Cancelled or failed before the download is handed on, the copy is deleted.
	 */
	Mono<Download> open(String key) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		return Mono.defer(() -> {
			String temporary = LargeValueKeys.temporaryKey(key, this.operations.cluster);
			AtomicBoolean handedOn = new AtomicBoolean();
			return snapshot(key, temporary)
				.<Download>handle((length, sink) -> {
					if (length >= 0) {
						handedOn.set(true);
						sink.next(new Download(this, key, temporary, length));
					}
				})
				.onErrorResume((failure) -> delete(temporary).then(Mono.error(failure)))
				.doOnCancel(() -> {
					if (!handedOn.get()) {
						delete(temporary).subscribe();
					}
				});
		}).doOnDiscard(Download.class, (download) -> download.discard().subscribe());
	}

	/** {@link #open} and its content: empty when there is no key. */
	Flux<DataBuffer> download(String key) {
		return open(key).flatMapMany(Download::content);
	}

	/** Copies the key to {@code temporary}; its length, or -1 when there is no key. */
	private Mono<Long> snapshot(String key, String temporary) {
		return mono(() -> LargeValueKeys.snapshot(this.channel, key, temporary), "download", key);
	}

	/** The chunks of the copy at {@code temporary}, which is deleted however they end. */
	Flux<DataBuffer> content(String key, String temporary, long length) {
		return Flux.usingWhen(Mono.just(temporary), (copy) -> chunks(key, copy, length), this::delete,
				(copy, failure) -> delete(copy), this::delete)
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.doOnDiscard(ValueLease.class, ValueLease::close);
	}

	private Flux<DataBuffer> chunks(String key, String temporary, long length) {
		// an offset is emitted once its GETRANGE is sent, which it is when the window has room;
		// each chunk is taken when the subscriber asks for it (ReactiveReplies sends on request:
		// concatMap's next inner waits for demand), so neither wait runs under a command's timeout
		return Flux.using(() -> new ReadAhead(temporary, length),
				(ahead) -> Flux.<Long>create(ahead::start)
					.concatMap((offset) -> chunk(key, temporary, offset, Math.min(offset + this.chunkSize, length),
							ahead), 1),
				ReadAhead::close);
	}

	private Mono<DataBuffer> chunk(String key, String temporary, long from, long to, ReadAhead ahead) {
		return mono(() -> ahead.take(from), "download", key)
			.switchIfEmpty(Mono.error(() -> LargeValueKeys.changed(key, temporary)))
			.handle((lease, sink) -> {
				try (lease) {
					if (lease.size() != to - from) {
						ahead.released();
						sink.error(LargeValueKeys.changed(key, temporary));
					}
					else {
						// the lease's reference goes to the DataBuffer, the subscriber's to release
						sink.next(this.buffers.wrap(new ReleaseSignallingByteBuf(lease.content().retain(),
								ahead::released)));
					}
				}
			});
	}

	/**
	 * The {@code GETRANGE}s of one download, sent ahead of the subscriber while the window has
	 * room: a chunk counts from its sending until its buffer is released, so the download holds at
	 * most {@code window} chunks whatever the subscriber requests, and the connection streams while
	 * the subscriber works. Emits each chunk's offset once it is sent. Owns the leases of the chunks
	 * not yet taken: {@link #close()} (the download ended, failed or was cancelled) cancels them and
	 * closes those already read.
	 */
	private final class ReadAhead {

		private final String temporary;

		private final long length;

		private final ArrayDeque<CompletableFuture<@Nullable ValueLease>> sent = new ArrayDeque<>();

		/** Chunks sent and not yet released: in flight, waiting to be taken, or in the subscriber's hands. */
		private int held;

		private @Nullable FluxSink<Long> offsets;

		private long nextOffset;

		private long takeOffset;

		private boolean closed;

		ReadAhead(String temporary, long length) {
			this.temporary = temporary;
			this.length = length;
		}

		/** Sends the first window of chunks, emitting their offsets to {@code offsets}. */
		synchronized void start(FluxSink<Long> offsets) {
			this.offsets = offsets;
			topUp();
		}

		/** The chunk at {@code offset}, the next one in order, already sent. */
		synchronized CompletableFuture<@Nullable ValueLease> take(long offset) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new CancellationException("The download was abandoned"));
			}
			if (offset != this.takeOffset || this.sent.isEmpty()) {
				return CompletableFuture.failedFuture(new IllegalStateException("Chunk at " + offset
						+ " asked for where the one at " + this.takeOffset + " is next"));
			}
			this.takeOffset += ReactiveLargeValueTransfer.this.chunkSize;
			return this.sent.poll();
		}

		/** A chunk's buffer was released (or the chunk dropped): room for the next. */
		synchronized void released() {
			this.held--;
			topUp();
		}

		/**
		 * Sends chunks while the window has room, emitting each offset, in order (under this lock:
		 * Reactor's operators never block, so emitting here cannot wait on another thread).
		 */
		private void topUp() {
			FluxSink<Long> sink = this.offsets;
			if (sink == null || this.closed) {
				return;
			}
			while (this.held < ReactiveLargeValueTransfer.this.window && this.nextOffset < this.length) {
				long from = this.nextOffset;
				long to = Math.min(from + ReactiveLargeValueTransfer.this.chunkSize, this.length);
				this.sent.add(ReactiveLargeValueTransfer.this.operations.leaseRange(this.temporary, from, to - 1));
				this.nextOffset = from + ReactiveLargeValueTransfer.this.chunkSize;
				this.held++;
				sink.next(from);
			}
			if (this.nextOffset >= this.length) {
				this.offsets = null;
				sink.complete();
			}
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
					// the incoming buffers gathered into chunks, each its APPEND sent as it fills, in
					// order on the connection, up to the window of them pipelined
					.thenMany(Flux.from(content)
						.concatMapIterable(upload::gather)
						.concatWith(Mono.fromCallable(upload::rest)))
					.flatMap(upload::append, this.window, 1)
					.then(replace(key, upload.temporary)),
				(upload) -> Mono.empty(), (upload, failure) -> upload.abandon(), Upload::abandon)
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.doOnDiscard(ByteBuf.class, ByteBuf::release);
	}

	/** {@code SET temporary "" PX ttl}: an upload of nothing stores an empty value. */
	private Mono<Long> create(Upload upload) {
		return mono(() -> this.operations.writeRaw(upload.temporary, EncodedValue.wrap(Unpooled.EMPTY_BUFFER),
				LargeValueKeys.TEMPORARY_TTL), "upload", upload.key);
	}

	/**
	 * One subscription's upload: its temporary key, the chunk being gathered, the bytes written so
	 * far, and whether it was abandoned. Once abandoned, no chunk is sent any more: an operator may
	 * still subscribe to a chunk after the upload failed or was cancelled (flatMap does, racing its
	 * own error), and an {@code APPEND} sent after the temporary key's {@code DEL} would bring the
	 * key back, without expiry. Chunks in flight when it is abandoned are cancelled by the operator
	 * that sent them, so they are either written before the {@code DEL} or never. Owns the chunk
	 * being gathered until it is full (handed on) or the upload is abandoned (released).
	 */
	private final class Upload {

		final String key;

		final String temporary;

		private final AtomicLong written = new AtomicLong();

		private @Nullable ByteBuf gathering;

		private boolean abandoned;

		Upload(String key, String temporary) {
			this.key = key;
			this.temporary = temporary;
		}

		/**
		 * Copies {@code buffer}'s bytes into the chunk being gathered and releases it; the chunks it
		 * filled, each exactly the chunk size, handed over.
		 */
		synchronized List<ByteBuf> gather(DataBuffer buffer) {
			List<ByteBuf> full = new ArrayList<>(1);
			try (DataBuffer.ByteBufferIterator parts = buffer.readableByteBuffers()) {
				while (!this.abandoned && parts.hasNext()) {
					ByteBuffer part = parts.next();
					while (part.hasRemaining()) {
						ByteBuf chunk = this.gathering;
						if (chunk == null) {
							chunk = ReactiveLargeValueTransfer.this.operations.allocator
								.buffer(ReactiveLargeValueTransfer.this.chunkSize, ReactiveLargeValueTransfer.this.chunkSize);
							this.gathering = chunk;
						}
						int limit = part.limit();
						part.limit(part.position() + Math.min(part.remaining(), chunk.writableBytes()));
						chunk.writeBytes(part);
						part.limit(limit);
						if (!chunk.isWritable()) {
							full.add(chunk);
							this.gathering = null;
						}
					}
				}
				return full;
			}
			catch (RuntimeException ex) {
				full.forEach(ByteBuf::release);
				throw ex;
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}

		/** The last, partly filled chunk, handed over; {@code null} when there is none. */
		synchronized @Nullable ByteBuf rest() {
			ByteBuf last = this.gathering;
			this.gathering = null;
			return last;
		}

		Mono<Void> append(ByteBuf chunk) {
			int size = chunk.readableBytes();
			// the chunk goes to its APPEND when the command is sent; cancelled before that, it is
			// released here: exactly one of the two takes it
			AtomicBoolean taken = new AtomicBoolean();
			return mono(() -> taken.compareAndSet(false, true) ? send(chunk)
					: CompletableFuture.failedFuture(new CancellationException("The chunk was cancelled")), "upload",
					this.key)
				.doFinally((signal) -> {
					if (taken.compareAndSet(false, true)) {
						chunk.release();
					}
				})
				.flatMap((length) -> (length == this.written.addAndGet(size)) ? Mono.<Void>empty()
						: Mono.error(new IllegalStateException("Temporary key '" + this.temporary + "' holds " + length
								+ " bytes after writing " + this.written.get() + ": it was changed by someone else")));
		}

		/** {@code APPEND}s the chunk, handing it over, unless the upload was abandoned; then releases it. */
		private synchronized CompletableFuture<Long> send(ByteBuf chunk) {
			if (this.abandoned) {
				chunk.release();
				return CompletableFuture.failedFuture(new CancellationException("The upload of '" + this.key
						+ "' was abandoned"));
			}
			return ReactiveLargeValueTransfer.this.operations.writeRaw(this.temporary, EncodedValue.wrap(chunk), null);
		}

		/** Sends no chunk from now on, releases the one being gathered, and deletes the temporary key. */
		Mono<Void> abandon() {
			synchronized (this) {
				this.abandoned = true;
				if (this.gathering != null) {
					this.gathering.release();
					this.gathering = null;
				}
			}
			return delete(this.temporary);
		}

	}

	private Mono<Void> replace(String key, String temporary) {
		return mono(() -> LargeValueKeys.replace(this.channel, key, temporary), "upload", key).then();
	}

	/** Deletes the temporary key, keeping any failure to itself: the key expires on its own. */
	Mono<Void> delete(String temporary) {
		return mono(() -> this.operations.delete(temporary), "delete", temporary).onErrorResume((ignored) -> Mono.empty())
			.then();
	}

	private <T> Mono<T> mono(Supplier<? extends CompletableFuture<T>> send, String action, Object key) {
		return this.channel.mono(send, action, key);
	}

}
