package dev.slipcase.redis.template;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.FluxSink;

/**
 * The {@code GETRANGE}s of one download, sent ahead of the subscriber while the window has
 * room: a chunk counts from its sending until its buffer is released, so the download holds at
 * most {@code window} chunks whatever the subscriber requests, and the connection streams while
 * the subscriber works. Chunks are reserved in order under this object's lock; their commands
 * are sent, and the chunks emitted, outside it (Lettuce and the subscriber may call back in from
 * any thread), emitted by one thread at a time in the order reserved. Owns the leases of the
 * chunks not yet taken: {@link #close()} (the download ended, failed or was cancelled) cancels
 * them, and a lease that arrives after it is closed.
 */
final class DownloadReadAhead {

	/** One chunk of a download: its range, and the reply its {@code GETRANGE} completes. */
	record Chunk(long from, long to, CompletableFuture<@Nullable ValueLease> reply) {
	}

	private final AsyncValueTemplate<?> operations;

	private final String temporary;

	private final long length;

	private final int chunkSize;

	private final int window;

	/** Reserved and not yet emitted. */
	private final ArrayDeque<Chunk> unannounced = new ArrayDeque<>();

	/** Reserved and not yet taken. */
	private final ArrayDeque<Chunk> untaken = new ArrayDeque<>();

	private final AtomicInteger emitting = new AtomicInteger();

	/** Chunks reserved and not yet released: in flight, waiting to be taken, or in the subscriber's hands. */
	private int held;

	private @Nullable FluxSink<Chunk> chunks;

	private long nextOffset;

	private boolean completed;

	private boolean closed;

	DownloadReadAhead(AsyncValueTemplate<?> operations, String temporary, long length, int chunkSize, int window) {
		this.operations = operations;
		this.temporary = temporary;
		this.length = length;
		this.chunkSize = chunkSize;
		this.window = window;
	}

	/** Sends the first window of chunks, emitting them to {@code chunks}. */
	void start(FluxSink<Chunk> chunks) {
		List<Chunk> reserved;
		synchronized (this) {
			this.chunks = chunks;
			reserved = reserve();
		}
		send(reserved);
	}

	/** The chunk emitted as {@code sent}: the next one not yet taken. */
	synchronized CompletableFuture<@Nullable ValueLease> take(Chunk sent) {
		if (this.closed) {
			return CompletableFuture.failedFuture(new CancellationException("The download was abandoned"));
		}
		if (this.untaken.peek() != sent) {
			return CompletableFuture.failedFuture(new IllegalStateException("Chunk at " + sent.from()
					+ " asked for out of order"));
		}
		return this.untaken.poll().reply();
	}

	/** A chunk's buffer was released: room for the next. */
	void released() {
		List<Chunk> reserved;
		synchronized (this) {
			this.held--;
			reserved = reserve();
		}
		send(reserved);
	}

	/** Reserves chunks while the window has room; the caller sends them. */
	private List<Chunk> reserve() {
		if (this.chunks == null || this.closed) {
			return List.of();
		}
		List<Chunk> reserved = new ArrayList<>(1);
		while (this.held < this.window && this.nextOffset < this.length) {
			long from = this.nextOffset;
			Chunk chunk = new Chunk(from, Math.min(from + this.chunkSize, this.length),
					new CompletableFuture<>());
			this.nextOffset = from + this.chunkSize;
			this.held++;
			this.untaken.add(chunk);
			this.unannounced.add(chunk);
			reserved.add(chunk);
		}
		return reserved;
	}

	/** Sends the reserved chunks' commands, then emits whatever is reserved, in order. */
	private void send(List<Chunk> reserved) {
		for (Chunk chunk : reserved) {
			if (chunk.reply().isDone()) {
				continue; // closed since
			}
			this.operations
				.leaseRange(this.temporary, chunk.from(), chunk.to() - 1)
				.whenComplete((lease, failure) -> {
					if (failure != null) {
						chunk.reply().completeExceptionally(failure);
					}
					else if (!chunk.reply().complete(lease) && lease != null) {
						lease.close();
					}
				});
		}
		emit();
	}

	/** Emits the chunks reserved and not yet emitted, and the end after the last: one thread at a time. */
	private void emit() {
		if (this.emitting.getAndIncrement() != 0) {
			return;
		}
		do {
			List<Chunk> ready;
			boolean end;
			FluxSink<Chunk> sink;
			synchronized (this) {
				ready = new ArrayList<>(this.unannounced);
				this.unannounced.clear();
				end = !this.completed && this.nextOffset >= this.length && this.chunks != null;
				this.completed |= end;
				sink = this.chunks;
			}
			if (sink != null) {
				ready.forEach(sink::next);
				if (end) {
					sink.complete();
				}
			}
		}
		while (this.emitting.decrementAndGet() != 0);
	}

	/** Reserves nothing more; cancels the chunks not taken, closing leases that arrived. */
	void close() {
		List<Chunk> abandoned;
		synchronized (this) {
			this.closed = true;
			abandoned = new ArrayList<>(this.untaken);
			this.untaken.clear();
			this.unannounced.clear();
		}
		for (Chunk chunk : abandoned) {
			chunk.reply().cancel(false);
			chunk.reply().thenAccept((lease) -> {
				if (lease != null) {
					lease.close();
				}
			});
		}
	}

}
