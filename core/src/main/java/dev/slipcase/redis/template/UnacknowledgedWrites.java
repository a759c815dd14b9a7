package dev.slipcase.redis.template;

import java.util.EnumSet;
import java.util.Set;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import io.lettuce.core.protocol.CommandType;

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
	RESEND;

	/** The commands Lettuce may write again after a reconnect whatever the policy: they change nothing. */
	private static final Set<CommandType> READS = EnumSet.of(CommandType.GET, CommandType.MGET, CommandType.HGET,
			CommandType.HMGET, CommandType.GETRANGE, CommandType.EXISTS, CommandType.STRLEN, CommandType.PTTL,
			CommandType.TTL);

	/** Whether a command of {@code type} is sent at most once under this policy: a write, unless resent. */
	boolean sendsOnce(CommandType type) {
		return this == FAIL && !READS.contains(type);
	}

}
