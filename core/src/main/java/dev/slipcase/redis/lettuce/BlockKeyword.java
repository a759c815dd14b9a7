package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * {@code MULTI} and {@code EXEC} as a {@link TransactionLane} sends them, and the type of a block
 * sent as one command: the same bytes on the wire, under names Lettuce does not take for its own
 * transaction commands. Lettuce keeps one transaction per connection in a field it fills as
 * {@code MULTI}, the commands and {@code EXEC} are dispatched, and clears when a {@code MULTI}
 * fails; the lane's blocks keep theirs in their {@link ExecOutput} instead, so that a block given
 * up on the event loop cannot empty another block being dispatched from another thread.
 */
enum BlockKeyword implements ProtocolKeyword {

	MULTI, EXEC,

	/** A whole block written as one command ({@link BlockCommand}): its name is never written. */
	BLOCK;

	private final byte[] bytes = name().getBytes(StandardCharsets.US_ASCII);

	/** What Lettuce reads as the command's type on every dispatch: made once. */
	private final String description = name() + " (of a transaction lane's block)";

	@Override
	public byte[] getBytes() {
		return this.bytes;
	}

	@Override
	public String toString() {
		return this.description;
	}

}
