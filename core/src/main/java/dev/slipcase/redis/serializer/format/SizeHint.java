package dev.slipcase.redis.serializer.format;

/**
 * How big a format's next value will probably be, to size a buffer before writing: the size of
 * the last value written plus an eighth. Racy by design: a stale hint only costs a buffer resize.
 */
public final class SizeHint {

	private volatile int lastSize = 256;

	/** A size for the next value, never negative. */
	public int estimate() {
		int last = this.lastSize;
		return last + (last >> 3) + 16;
	}

	/** Remembers that a value of {@code size} bytes was written. */
	public void written(int size) {
		this.lastSize = size;
	}

}
