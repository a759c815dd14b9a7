package dev.slipcase.redis.sample.redis;

import java.nio.file.Path;

/**
 * A JVM that starts an {@link EmbeddedRedisServer} the way the app does, prints where it is, and
 * waits to be killed: {@link EmbeddedRedisWatchdogTests} kills it with {@code SIGKILL}.
 */
final class EmbeddedRedisProbe {

	private EmbeddedRedisProbe() {
	}

	public static void main(String[] args) throws InterruptedException {
		EmbeddedRedisServer server = new EmbeddedRedisServer(Path.of(args[0]));
		System.out.println("READY " + server.port() + " " + server.folder() + " " + server.watchdogPid());
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
