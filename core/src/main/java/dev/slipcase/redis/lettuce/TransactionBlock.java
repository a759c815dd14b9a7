package dev.slipcase.redis.lettuce;

/**
 * Whether one {@code MULTI} … {@code EXEC} block of a {@link TransactionLane} goes out whole or not
 * at all. The caller may give up on a block (a timeout, an interrupt) at any time, from any
 * thread; the block's fate is decided once, when Lettuce encodes its {@code MULTI} on the
 * connection's event loop: a block given up before then is written as {@code PING}s, every
 * command of it, so that it is never applied afterwards and never leaves the connection inside
 * {@code MULTI}; a block whose {@code MULTI} is written goes out whole, {@code EXEC} included, in
 * the same write (Lettuce encodes one dispatch in one pass), and its outcome is the caller's to
 * learn or to count as unknown. Cancelling the block's commands one by one instead would let
 * Lettuce skip some of them and write the rest.
 */
final class TransactionBlock {

	private volatile boolean abandoned;

	/** Written on the event loop only, by the block's {@code MULTI}. */
	private boolean committed;

	/** The caller gave up: unless {@code MULTI} is already written, nothing of the block will be. */
	void abandon() {
		this.abandoned = true;
	}

	/**
	 * Whether the block's {@code MULTI}, about to be encoded for the first time, goes out: decides
	 * for the whole block. Called on the event loop.
	 */
	boolean commitAtMulti() {
		this.committed = !this.abandoned;
		return this.committed;
	}

	/** Whether another command of the block goes out: only when its {@code MULTI} did. Event loop only. */
	boolean isCommitted() {
		return this.committed;
	}

}
