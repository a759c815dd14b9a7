package dev.slipcase.redis.template;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;

/**
 * What a {@link ValueTemplate} does with a write whose reply was lost with its connection: Lettuce
 * writes every command that got no reply again once it has reconnected.
 */
public enum UnacknowledgedWrites {

	/**
	 * The default, as StackExchange.Redis does it: a write that was written once is never written
	 * again; after the reconnect it fails with an {@link UnacknowledgedWriteException} (it may or may
	 * not have been applied). A write never applied twice, and never lands over a newer value.
	 * Reads ({@code GET}, {@code MGET}, {@code EXISTS}, ...) are written again as usual.
	 */
	FAIL,

	/**
	 * Lettuce's own at-least-once: the write is written again after the reconnect, and the call
	 * returns its second reply. An {@code INCRBY} may then be applied twice, and a {@code SET} land
	 * over a value another client wrote in between.
	 */
	RESEND

}
