package dev.slipcase.redis.lettuce;

/**
 * A Lettuce command that stands for several on the wire and reads one reply for each: a
 * {@link MultiReplyCommandHandler} keeps it at the head of the stack until it has read them all.
 * Called on the connection's event loop.
 */
interface MultiReplyCommand {

	/** A {@link MultiReplyCommandHandler} is writing it: it may write the commands it stands for. */
	void accept();

	/** Whether it has read a reply for every command it wrote. */
	boolean hasAllReplies();

}
