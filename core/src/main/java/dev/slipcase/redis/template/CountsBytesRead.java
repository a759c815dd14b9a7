package dev.slipcase.redis.template;

/**
 * A command output that counts the stored bytes of the values it read, for the command's
 * observation. Written by the event loop before the command completes, read after.
 */
interface CountsBytesRead {

	/** The stored bytes of the values read so far. */
	long bytesRead();

}
