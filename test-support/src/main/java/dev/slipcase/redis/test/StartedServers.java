package dev.slipcase.redis.test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every server process the fixture started and has not stopped yet, stopped by a JVM shutdown
 * hook so that no {@code redis-server} outlives the test run, even when a test forgets to close
 * one or the run is interrupted.
 */
final class StartedServers {

	private static final Set<AutoCloseable> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(StartedServers::closeAll, "slipcase-redis-shutdown"));
	}

	private StartedServers() {
	}

	static void register(AutoCloseable server) {
		running.add(server);
	}

	static void unregister(AutoCloseable server) {
		running.remove(server);
	}

	static int count() {
		return running.size();
	}

	private static void closeAll() {
		for (AutoCloseable server : List.copyOf(running)) {
			try {
				server.close();
			}
			catch (Exception ex) {
				// the JVM is exiting; nothing left to report to
			}
		}
	}

}
