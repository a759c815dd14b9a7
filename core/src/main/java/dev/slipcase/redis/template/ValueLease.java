package dev.slipcase.redis.template;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.format.ValueFormat;
import io.netty.buffer.ByteBuf;

import org.springframework.util.Assert;

/**
 * The raw bytes of one Redis value, read into a pooled buffer that the caller holds until it
 * {@link #close() closes} the lease, for callers that parse or forward bytes without building a
 * {@code byte[]} (such as writing straight to an HTTP response):
 * <pre class="code">
 * try (ValueLease lease = template.lease("report:42")) {
 *     if (lease != null) lease.writeTo(response.getOutputStream());
 * }
 * </pre>
 * The caller is responsible for closing the lease; a lease that is never closed is a leaked
 * pooled buffer, which Netty's leak detector reports. Not thread-safe for reading; closing is
 * idempotent and may happen on any thread.
 * <p>
 * Opening and closing are reported to the {@link SlipcaseObserver} current when the lease was
 * opened (the same one both times, so an observer's count of open leases stays balanced).
 */
public final class ValueLease implements AutoCloseable {

	private final ByteBuf content;

	private final SlipcaseObserver observer;

	private static final AtomicIntegerFieldUpdater<ValueLease> CLOSED = AtomicIntegerFieldUpdater
		.newUpdater(ValueLease.class, "closed");

	private volatile int closed;

	private ValueLease(ByteBuf content, SlipcaseObserver observer) {
		this.content = content;
		// the observer of the moment, not the forwarder: a lease opened before an observer is
		// registered must not be reported closed to it
		this.observer = (observer == SlipcaseObservers.global()) ? SlipcaseObservers.current() : observer;
		this.observer.leaseOpened();
	}

	/**
	 * A lease over {@code content}'s readable bytes.
	 * <p>
	 * Reference count ownership of {@code content} is transferred to this method; {@link #close()}
	 * releases it.
	 * @param content the bytes, never {@code null}
	 */
	public static ValueLease of(ByteBuf content) {
		return of(content, SlipcaseObservers.global());
	}

	/**
	 * A lease over {@code content}'s readable bytes, reported opened and closed to
	 * {@code observer}.
	 * <p>
	 * Reference count ownership of {@code content} is transferred to this method; {@link #close()}
	 * releases it.
	 * @param content the bytes, never {@code null}
	 * @param observer where the lease is reported, never {@code null}
	 */
	public static ValueLease of(ByteBuf content, SlipcaseObserver observer) {
		Assert.notNull(content, "content must not be null");
		Assert.notNull(observer, "observer must not be null");
		return new ValueLease(content, observer);
	}

	/**
	 * The leased buffer itself (no wrapper is allocated), to read from. Valid until the lease is
	 * closed. The caller must not release, retain or write to it (closing the lease releases it);
	 * moving its reader index is fine, but {@link #size()}, {@link #decode} and {@link #writeTo}
	 * then see only what is left.
	 * @throws IllegalStateException when the lease is closed
	 */
	public ByteBuf content() {
		checkOpen();
		return this.content;
	}

	/**
	 * The number of bytes.
	 * @throws IllegalStateException when the lease is closed
	 */
	public int size() {
		checkOpen();
		return this.content.readableBytes();
	}

	/**
	 * Decodes the bytes with {@code format}; the lease stays open.
	 * @throws org.springframework.data.redis.serializer.SerializationException when the bytes are
	 * not a valid value of the format
	 */
	public <T> T decode(ValueFormat<T> format) {
		checkOpen();
		return format.decode(this.content.duplicate());
	}

	/** Writes all the bytes to {@code out}; the lease stays open and {@code out} is not closed. */
	public void writeTo(OutputStream out) throws IOException {
		checkOpen();
		this.content.getBytes(this.content.readerIndex(), out, this.content.readableBytes());
	}

	/** Releases the buffer. Idempotent. */
	@Override
	public void close() {
		if (CLOSED.compareAndSet(this, 0, 1)) {
			try {
				this.content.release();
			}
			finally {
				this.observer.leaseClosed();
			}
		}
	}

	private void checkOpen() {
		if (this.closed != 0) {
			throw new IllegalStateException("The lease is closed");
		}
	}

	@Override
	public String toString() {
		return "ValueLease[" + ((this.closed != 0) ? "closed" : this.content.readableBytes() + " bytes") + "]";
	}

}
