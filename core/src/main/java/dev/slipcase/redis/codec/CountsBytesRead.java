package dev.slipcase.redis.codec;

/**
 * A command output that counts the stored bytes of the values it read, for the command's
 * observation. Written by the event loop before the command completes, read after.
 */
public interface CountsBytesRead {

	/** The stored bytes of the values read so far. */
	long bytesRead();

}
