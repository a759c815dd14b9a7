package dev.slipcase.redis.autoconfigure.session;

import org.jspecify.annotations.Nullable;

/**
 * Marks, on the thread loading a session, that one of its values was JDK-serialized, so that
 * {@link RewritingSessionRepository} knows to write that session again whole. Set by
 * {@link SessionValueSerializer}, which the repository's template reads with on the same thread.
 */
final class JdkSessionReads {

	private static final ThreadLocal<boolean @Nullable []> READ = new ThreadLocal<>();

	private JdkSessionReads() {
	}

	/**
	 * Starts watching this thread's reads, until {@link #stop}.
	 * @return what an enclosing watch had seen, for {@link #stop} to restore
	 */
	static boolean @Nullable [] start() {
		boolean[] outer = READ.get();
		READ.set(new boolean[1]);
		return outer;
	}

	/** A JDK-serialized value was read on this thread. */
	static void read() {
		boolean[] read = READ.get();
		if (read != null) {
			read[0] = true;
		}
	}

	/**
	 * Stops watching, saying whether a JDK-serialized value was read since {@link #start}; an
	 * enclosing watch sees those reads too.
	 * @param outer what {@link #start} returned
	 */
	static boolean stop(boolean @Nullable [] outer) {
		boolean[] read = READ.get();
		boolean seen = read != null && read[0];
		if (outer != null) {
			outer[0] |= seen;
			READ.set(outer);
		}
		else {
			READ.remove();
		}
		return seen;
	}

}
