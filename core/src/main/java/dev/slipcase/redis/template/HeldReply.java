package dev.slipcase.redis.template;

/**
 * A command output that may hold a pooled copy of its reply until the caller takes it. The
 * {@link TemplateCommand} it belongs to calls {@link #abandon()} when the command fails or is
 * cancelled, or completes without handing the copy over; {@link #abandon()} releases the copy,
 * also one that arrives afterwards, and is idempotent.
 */
interface HeldReply {

	/** Releases whatever this output holds or will receive: the caller never gets it. */
	void abandon();

}
