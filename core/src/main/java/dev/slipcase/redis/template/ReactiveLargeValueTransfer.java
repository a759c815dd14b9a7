package dev.slipcase.redis.template;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
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
 * consistent copy). Memory is bounded by the transfer's window of chunks, never the value, and
 * never by what the subscriber requests: a download holds at most {@code window} chunks read from
 * Redis whose buffers were not yet released (WebFlux releases each once written to the socket, so
 * a client that stops reading stops the download); an upload gathers the incoming buffers, one at
 * a time, into chunk-sized commands (the first chunk in the {@code SET} that makes the temporary
 * key, the next ones {@code APPEND}ed), at most {@code window} of them in flight (an incoming
 * buffer larger than a chunk is cut into its chunks at once).
 * <p>
 * Buffers: a download emits each chunk as the pooled buffer its reply was copied into, wrapped in
 * a {@link NettyDataBuffer}; the subscriber releases it. A chunk Reactor discards (the subscriber
 * cancelled or failed with one in hand) is released here. An upload takes ownership of each
 * incoming buffer: its bytes are copied into the chunk being gathered, a buffer of the template's
 * allocator, and it is released at once; the upload owns each chunk until its command takes it,
 * and releases those it still owns when it fails or is cancelled. However a transfer ends (done,
 * failed, cancelled), its temporary key is deleted, and a failed upload leaves the old value as it
 * was. No lock is held while a command is sent or a chunk emitted.
 */
final class ReactiveLargeValueTransfer {

	/** The default window: chunk commands pipelined, and chunks a transfer holds at most. */
	static final int DEFAULT_WINDOW = 8;

	/** The most an upload's chunk takes before its bytes come: larger chunks grow as they fill. */
	private static final int MAX_INITIAL_CHUNK = 1024 * 1024;

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
	 * there is no key. The copy lives {@link LargeValueKeys#OPENED_TTL} until the download's content
	 * is subscribed to, which extends it to {@link LargeValueKeys#TEMPORARY_TTL}: a download dropped
	 * unread (by an operator, a failed response) costs Redis its copy for that long only. Cancelled
	 * or failed before the download is handed on, the copy is deleted.
	 */
	Mono<Download> open(String key) {
		return open(key, LargeValueKeys.OPENED_TTL);
	}

	private Mono<Download> open(String key, Duration ttl) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		return Mono.defer(() -> {
			String temporary = LargeValueKeys.temporaryKey(key, this.operations.cluster);
			AtomicBoolean handedOn = new AtomicBoolean();
			return mono(() -> LargeValueKeys.snapshot(this.channel, key, temporary, ttl), "download", key)
				.<Download>handle((length, sink) -> {
					if (length >= 0) {
						handedOn.set(true);
						sink.next(new Download(this, key, temporary, length, !ttl.equals(LargeValueKeys.TEMPORARY_TTL)));
					}
				})
				.onErrorResume((failure) -> delete(temporary).then(Mono.error(failure)))
				.doOnCancel(() -> {
					if (!handedOn.get()) {
						delete(temporary).subscribe();
					}
				});
		});
	}

	/**
	 * {@link #open} and its content at once: empty when there is no key. A download cancelled as
	 * it is handed on is discarded, deleting its copy.
	 */
	Flux<DataBuffer> download(String key) {
		return open(key, LargeValueKeys.TEMPORARY_TTL).flatMapMany(Download::content)
			.doOnDiscard(Download.class, (download) -> download.discard().subscribe());
	}

	/**
	 * The chunks of the copy at {@code temporary}, which is deleted however they end; its expiry
	 * extended first when {@code extend}.
	 */
	Flux<DataBuffer> content(String key, String temporary, long length, boolean extend) {
		Flux<DataBuffer> content = Flux.usingWhen(Mono.just(temporary),
				(copy) -> !extend ? chunks(key, copy, length)
						: mono(() -> this.operations.expire(copy, LargeValueKeys.TEMPORARY_TTL), "download", key)
							.flatMapMany((exists) -> exists ? chunks(key, copy, length) : Flux.error(expired(key))),
				this::delete, (copy, failure) -> delete(copy), this::delete);
		return content.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.doOnDiscard(ValueLease.class, ValueLease::close);
	}

	private static IllegalStateException expired(String key) {
		return new IllegalStateException("The copy of '" + key + "' opened for download expired before its content "
				+ "was read: read it within " + LargeValueKeys.OPENED_TTL.toSeconds() + " s of opening");
	}

	private Flux<DataBuffer> chunks(String key, String temporary, long length) {
		// a token is emitted once a chunk's GETRANGE is sent, which it is when the window has room;
		// each chunk is taken when the subscriber asks for it (ReactiveReplies sends on request:
		// concatMap's next inner waits for demand), so neither wait runs under a command's timeout
		return Flux.using(() -> new DownloadReadAhead(this.operations, temporary, length, this.chunkSize, this.window),
				(ahead) -> Flux.<DownloadReadAhead.Chunk>create(ahead::start)
					.concatMap((sent) -> chunk(key, temporary, sent, ahead), 1),
				DownloadReadAhead::close);
	}

	private Mono<DataBuffer> chunk(String key, String temporary, DownloadReadAhead.Chunk sent, DownloadReadAhead ahead) {
		return mono(() -> ahead.take(sent), "download", key)
			.switchIfEmpty(Mono.error(() -> LargeValueKeys.changed(key, temporary)))
			.handle((lease, sink) -> {
				try (lease) {
					if (lease.size() != sent.to() - sent.from()) {
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

	Mono<Void> upload(String key, Publisher<? extends DataBuffer> content) {
		LargeValueKeys.temporaryKey(key, this.operations.cluster); // a key that cannot be transferred fails here
		// the temporary key is named per subscription, and deleted when the upload fails or is cancelled
		return Mono.usingWhen(
				Mono.fromSupplier(() -> new Upload(key, LargeValueKeys.temporaryKey(key, this.operations.cluster))),
				// the incoming buffers gathered into chunks, each sent as it fills: the first in the SET
				// that makes the temporary key with its expiry, the others APPENDed once that SET is
				// acknowledged (never creating the key without one), in order on the connection, up to
				// the window of them pipelined
				(upload) -> Flux.from(content)
					.concatMapIterable(upload::gather, 1)
					.concatWith(Mono.fromCallable(upload::rest))
					// no chunk at all: an upload of nothing, stored as an empty value
					.switchOnFirst((first, chunks) -> first.hasValue()
							? upload.append(first.get(), true)
								.thenMany(chunks.skip(1).flatMap((chunk) -> upload.append(chunk, false), this.window, 1))
							: chunks.then(create(upload).then()))
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
	 * One subscription's upload: its temporary key, the chunks it gathered and has not yet sent,
	 * the bytes written so far, and whether it was abandoned. It owns every chunk from its
	 * gathering until its {@code APPEND} takes it, whatever operators do with it meanwhile (one
	 * dropped after a failure is released when the upload is abandoned). Once abandoned, no chunk is
	 * sent any more, and the temporary key's {@code DEL} goes out after the sends under way, so no
	 * {@code APPEND} follows it and brings the key back without expiry.
	 */
	private final class Upload {

		final String key;

		final String temporary;

		private final AtomicLong written = new AtomicLong();

		/** Chunks gathered and not yet sent, the one being filled included. */
		private final Set<ByteBuf> owned = Collections.newSetFromMap(new IdentityHashMap<>());

		private final CompletableFuture<Void> quiet = new CompletableFuture<>();

		private @Nullable ByteBuf gathering;

		private int sending;

		private boolean abandoned;

		Upload(String key, String temporary) {
			this.key = key;
			this.temporary = temporary;
		}

		/**
		 * Copies {@code buffer}'s bytes into the chunk being gathered and releases it; the chunks it
		 * filled, each exactly the chunk size. Throwing, it leaves {@code buffer} to the caller.
		 */
		synchronized List<ByteBuf> gather(DataBuffer buffer) {
			if (this.abandoned) {
				DataBufferUtils.release(buffer);
				return List.of();
			}
			List<ByteBuf> full = new ArrayList<>(1);
			try (DataBuffer.ByteBufferIterator parts = buffer.readableByteBuffers()) {
				while (parts.hasNext()) {
					ByteBuffer part = parts.next();
					while (part.hasRemaining()) {
						ByteBuf chunk = this.gathering;
						if (chunk == null) {
							int chunkSize = ReactiveLargeValueTransfer.this.chunkSize;
							chunk = ReactiveLargeValueTransfer.this.operations.allocator
								.buffer(Math.min(chunkSize, MAX_INITIAL_CHUNK), chunkSize);
							this.owned.add(chunk);
							this.gathering = chunk;
						}
						int limit = part.limit();
						part.limit(part.position() + Math.min(part.remaining(), chunk.maxWritableBytes()));
						chunk.writeBytes(part);
						part.limit(limit);
						if (chunk.maxWritableBytes() == 0) {
							full.add(chunk);
							this.gathering = null;
						}
					}
				}
			}
			DataBufferUtils.release(buffer);
			return full;
		}

		/** The last, partly filled chunk; {@code null} when there is none. */
		synchronized @Nullable ByteBuf rest() {
			ByteBuf last = this.gathering;
			this.gathering = null;
			return this.abandoned ? null : last;
		}

		/** Sends {@code chunk}, the upload's first when {@code first}; see {@link #send}. */
		Mono<Void> append(ByteBuf chunk, boolean first) {
			int size = chunk.readableBytes();
			// the chunk goes to its APPEND when the command is sent; never sent, it is released here
			// or by abandon(), whichever finds it still owned
			AtomicBoolean taken = new AtomicBoolean();
			return mono(() -> taken.compareAndSet(false, true) ? send(chunk, first)
					: CompletableFuture.failedFuture(new CancellationException("The chunk was cancelled")), "upload",
					this.key)
				.doFinally((signal) -> {
					if (taken.compareAndSet(false, true)) {
						disown(chunk);
					}
				})
				.flatMap((length) -> (length == this.written.addAndGet(size)) ? Mono.<Void>empty()
						: Mono.error(new IllegalStateException("Temporary key '" + this.temporary + "' holds " + length
								+ " bytes after writing " + this.written.get() + ": it was changed by someone else")));
		}

		/**
		 * Sends the chunk, handing it over, unless the upload was abandoned: the {@code first} in
		 * {@code SET temporary chunk PX ttl}, the next ones {@code APPEND}ed. Chunks are sent one at a
		 * time, in order.
		 */
		private CompletableFuture<Long> send(ByteBuf chunk, boolean first) {
			synchronized (this) {
				if (this.abandoned || !this.owned.remove(chunk)) {
					return CompletableFuture.failedFuture(new CancellationException("The upload of '" + this.key
							+ "' was abandoned"));
				}
				this.sending++;
			}
			try {
				return ReactiveLargeValueTransfer.this.operations.writeRaw(this.temporary, EncodedValue.wrap(chunk),
						first ? LargeValueKeys.TEMPORARY_TTL : null);
			}
			finally {
				synchronized (this) {
					this.sending--;
					if (this.abandoned && this.sending == 0) {
						this.quiet.complete(null);
					}
				}
			}
		}

		private synchronized void disown(ByteBuf chunk) {
			if (this.owned.remove(chunk)) {
				chunk.release();
			}
		}

		/**
		 * Sends no chunk from now on, releases those it still owns, and deletes the temporary key
		 * once the sends under way are on the connection.
		 */
		Mono<Void> abandon() {
			synchronized (this) {
				this.abandoned = true;
				this.owned.forEach(ByteBuf::release);
				this.owned.clear();
				this.gathering = null;
				if (this.sending == 0) {
					this.quiet.complete(null);
				}
			}
			return Mono.fromFuture(this.quiet, true).then(delete(this.temporary));
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
