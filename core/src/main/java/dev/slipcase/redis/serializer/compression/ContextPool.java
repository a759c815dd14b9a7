package dev.slipcase.redis.serializer.compression;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A small pool of native (de)compression contexts, so that a call does not pay for creating one
 * (a zstd decompression context is about 160 KB of native memory, a zlib one about 300 KB).
 * At most {@code maxIdle} contexts are kept; any beyond are closed on release. Thread-safe and
 * lock-free; works the same for platform and virtual threads.
 * <p>
 * Contexts must be released in {@code finally}; {@link #close()} closes the idle ones and makes
 * later releases close theirs.
 */
final class ContextPool<T> implements Runnable {

	private final ArrayBlockingQueue<T> idle;

	private final Supplier<T> factory;

	private final Consumer<T> closer;

	private volatile boolean closed;

	ContextPool(int maxIdle, Supplier<T> factory, Consumer<T> closer) {
		this.idle = new ArrayBlockingQueue<>(Math.max(1, maxIdle));
		this.factory = factory;
		this.closer = closer;
	}

	/** The default number of idle contexts kept per pool: one per processor. */
	static int defaultMaxIdle() {
		return Math.max(2, Runtime.getRuntime().availableProcessors());
	}

	T acquire() {
		T context = this.idle.poll();
		return (context != null) ? context : this.factory.get();
	}

	/** Returns a context after use; one that failed in a way that may have broken it should be discarded instead. */
	void release(T context) {
		if (this.closed || !this.idle.offer(context)) {
			this.closer.accept(context);
		}
		else if (this.closed) {
			drain();
		}
	}

	/** Closes a context that must not be reused. */
	void discard(T context) {
		this.closer.accept(context);
	}

	/** Closes the idle contexts; called by a {@link java.lang.ref.Cleaner} when the owner is unreachable. */
	@Override
	public void run() {
		close();
	}

	void close() {
		this.closed = true;
		drain();
	}

	private void drain() {
		@Nullable T context;
		while ((context = this.idle.poll()) != null) {
			this.closer.accept(context);
		}
	}

}
