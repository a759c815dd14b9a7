package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * {@code MULTI} and {@code EXEC} as a {@link TransactionLane} sends them, and the types of a block
 * and of pipelined commands and of value reads sent as one command: the same bytes on the wire, under names Lettuce
 * does not take for its own transaction commands. Lettuce keeps one transaction per connection in a
 * field it fills as {@code MULTI}, the commands and {@code EXEC} are dispatched, and clears when a
 * {@code MULTI} fails; the lane's blocks keep theirs in their {@link ExecOutput} instead, so that a
 * block given up on the event loop cannot empty another block being dispatched from another thread.
 */
enum BlockKeyword implements ProtocolKeyword {

	MULTI("of a transaction lane's block"), EXEC("of a transaction lane's block"),

	/** A whole block written as one command ({@link BlockCommand}): its name is never written. */
	BLOCK("a transaction lane's block as one command"),

	/** Pipelined commands written as one ({@link BatchCommand}): its name is never written. */
	BATCH("pipelined commands as one command"),

	/** Reads of values written as one command ({@link ValueReads}): its name is never written. */
	READS("value reads as one command");

	private final byte[] bytes = name().getBytes(StandardCharsets.US_ASCII);

	/** What Lettuce reads as the command's type on every dispatch: made once. */
	private final String description;

	BlockKeyword(String what) {
		this.description = name() + " (" + what + ")";
	}

	@Override
	public byte[] getBytes() {
		return this.bytes;
	}

	@Override
	public String toString() {
		return this.description;
	}

}
