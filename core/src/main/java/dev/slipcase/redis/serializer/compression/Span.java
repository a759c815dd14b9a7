package dev.slipcase.redis.serializer.compression;

import java.nio.ByteBuffer;

import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * A contiguous region of a {@link ByteBuf}'s memory, as the compression libraries want it: an
 * array slice (heap buffers) or a direct {@link ByteBuffer} (direct buffers). A buffer that is
 * neither (a composite of several components, a read-only view) is copied into a scratch buffer,
 * so callers never need to care.
 * <p>
 * Direct regions are Netty's {@linkplain ByteBuf#internalNioBuffer internal NIO buffer} of the
 * viewed buffer: no allocation for pooled and unpooled buffers, and, like every use of a
 * {@code ByteBuf}, not for sharing between threads.
 * <p>
 * A span never moves the reader or writer index of the buffer it views, and it never releases
 * that buffer. It owns only its scratch buffer, which {@link #close()} releases: use it in
 * try-with-resources. Not thread-safe; one span per call.
 */
final class Span implements AutoCloseable {

	private final byte @Nullable [] array;

	private final @Nullable ByteBuffer direct;

	private final int offset;

	private final int length;

	private final @Nullable ByteBuf scratch;

	private Span(byte @Nullable [] array, @Nullable ByteBuffer direct, int offset, int length,
			@Nullable ByteBuf scratch) {
		this.array = array;
		this.direct = direct;
		this.offset = offset;
		this.length = length;
		this.scratch = scratch;
	}

	/**
	 * The readable bytes of {@code in}, in place when it is array-backed or a single direct
	 * region, else copied into a heap scratch buffer.
	 */
	static Span readable(ByteBuf in) {
		return readable(in, in.readerIndex(), in.readableBytes());
	}

	/** {@code length} bytes of {@code in} from {@code index}, like {@link #readable(ByteBuf)}. */
	static Span readable(ByteBuf in, int index, int length) {
		if (in.hasArray()) {
			return new Span(in.array(), null, in.arrayOffset() + index, length, null);
		}
		if (in.isDirect() && in.nioBufferCount() == 1) {
			ByteBuffer view = in.internalNioBuffer(index, length);
			if (view.isDirect()) {
				return new Span(null, view, view.position(), length, null);
			}
		}
		ByteBuf copy = in.alloc().heapBuffer(length, length);
		try {
			copy.writeBytes(in, index, length);
		}
		catch (RuntimeException ex) {
			copy.release();
			throw ex;
		}
		return new Span(copy.array(), null, copy.arrayOffset(), length, copy);
	}

	/**
	 * {@code length} bytes of {@code out}'s memory from its writer index, growing {@code out}
	 * first. The span views {@code out} in place when {@code out} is of the wanted kind and
	 * contiguous; otherwise it is a scratch buffer that {@link #commit} copies into {@code out}.
	 * @param direct whether a direct region is wanted (else an array)
	 */
	static Span writable(ByteBuf out, int length, boolean direct) {
		out.ensureWritable(length);
		int index = out.writerIndex();
		if (!direct && out.hasArray()) {
			return new Span(out.array(), null, out.arrayOffset() + index, length, null);
		}
		if (direct && out.isDirect() && out.nioBufferCount() == 1) {
			ByteBuffer view = out.internalNioBuffer(index, length);
			if (view.isDirect() && !view.isReadOnly()) {
				return new Span(null, view, view.position(), length, null);
			}
		}
		ByteBuf scratch = direct ? out.alloc().directBuffer(length, length) : out.alloc().heapBuffer(length, length);
		if (direct) {
			ByteBuffer view = scratch.internalNioBuffer(0, length);
			return new Span(null, view, view.position(), length, scratch);
		}
		return new Span(scratch.array(), null, scratch.arrayOffset(), length, scratch);
	}

	/** {@code length} writable bytes of {@code out}, of whichever kind {@code out} is. */
	static Span writable(ByteBuf out, int length) {
		return writable(out, length, !out.hasArray() && out.isDirect());
	}

	boolean isArray() {
		return this.array != null;
	}

	/** The array of an array span. */
	byte[] array() {
		if (this.array == null) {
			throw new IllegalStateException("Not an array span");
		}
		return this.array;
	}

	/** The direct buffer of a direct span; absolute offsets, from {@link #offset()}. */
	ByteBuffer direct() {
		if (this.direct == null) {
			throw new IllegalStateException("Not a direct span");
		}
		return this.direct;
	}

	/** Where the region starts in {@link #array()} or {@link #direct()}. */
	int offset() {
		return this.offset;
	}

	int length() {
		return this.length;
	}

	/**
	 * The direct region as a {@link ByteBuffer} whose position is the region's start and whose
	 * limit is its end, for APIs that consume a buffer. The same object on every call, reset by
	 * each call.
	 */
	ByteBuffer directRegion() {
		return directRegion(0, this.length);
	}

	/** Part of the direct region, from {@code start} (relative to the region) for {@code length} bytes. */
	ByteBuffer directRegion(int start, int length) {
		ByteBuffer view = direct();
		view.limit(this.offset + start + length).position(this.offset + start);
		return view;
	}

	/**
	 * Accepts the first {@code written} bytes of a span from {@link #writable}: advances
	 * {@code out}'s writer index over them, copying them from the scratch buffer first when
	 * there is one.
	 */
	void commit(ByteBuf out, int written) {
		if (written < 0 || written > this.length) {
			throw new IllegalArgumentException("written " + written + " out of 0.." + this.length);
		}
		if (this.scratch != null) {
			out.writeBytes(this.scratch, 0, written);
		}
		else {
			out.writerIndex(out.writerIndex() + written);
		}
	}

	/** Releases the scratch buffer, if any. */
	@Override
	public void close() {
		if (this.scratch != null) {
			this.scratch.release();
		}
	}

}
