package dev.slipcase.redis.autoconfigure.session;

/**
 * Marks, on the thread loading a session, that one of its values was JDK-serialized, so that
 * {@link RewritingSessionRepository} knows to write that session again whole. Set by
 * {@link SessionValueSerializer}, which the repository's template reads with on the same thread.
 */
final class JdkSessionReads {

	private static final ThreadLocal<boolean[]> READ = new ThreadLocal<>();

	private JdkSessionReads() {
	}

	/** Starts watching this thread's reads; {@link #stop} ends it. */
	static void start() {
		READ.set(new boolean[1]);
	}

	/** A JDK-serialized value was read on this thread. */
	static void read() {
		boolean[] read = READ.get();
		if (read != null) {
			read[0] = true;
		}
	}

	/** Stops watching, saying whether a JDK-serialized value was read since {@link #start}. */
	static boolean stop() {
		boolean[] read = READ.get();
		READ.remove();
		return read != null && read[0];
	}

}
