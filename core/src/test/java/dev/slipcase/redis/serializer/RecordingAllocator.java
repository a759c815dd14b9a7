package dev.slipcase.redis.serializer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

/** An allocator that remembers every buffer it handed out, so tests can check all were released. */
public final class RecordingAllocator extends AbstractByteBufAllocator {

	private final List<ByteBuf> handedOut = new CopyOnWriteArrayList<>();

	public RecordingAllocator(boolean direct) {
		super(direct);
	}

	@Override
	protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
		return record(UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity));
	}

	@Override
	protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
		return record(UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity));
	}

	private ByteBuf record(ByteBuf buffer) {
		this.handedOut.add(buffer);
		return buffer;
	}

	@Override
	public boolean isDirectBufferPooled() {
		return false;
	}

	public int handedOut() {
		return this.handedOut.size();
	}

	/** The buffers handed out so far, in order. */
	public List<ByteBuf> buffers() {
		return this.handedOut;
	}

	/** Forgets the buffers handed out so far. */
	public void forget() {
		this.handedOut.clear();
	}

	public boolean allReleased() {
		return this.handedOut.stream().allMatch((buffer) -> buffer.refCnt() == 0);
	}

}
