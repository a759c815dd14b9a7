package dev.slipcase.redis.test;

import java.nio.file.Path;
import java.util.List;

/**
 * A local {@code redis-server} that writes every change to its append-only file before it answers
 * ({@code appendfsync always}), so that a crash loses nothing it acknowledged, and that a test can
 * crash and restart: {@link #crashAndRestart()} kills the process with {@code SIGKILL} and starts a
 * new one on the same port from the same directory, which replays the file. Clients reconnect to
 * the same endpoint. {@link #close()} stops the process and deletes the directory. Thread-safe.
 */
public final class DurableRedisServer implements RedisServer {

	private static final List<String> DURABLE = List.of("--appendonly", "yes", "--appendfsync", "always");

	private final Path binary;

	private final Path directory;

	private final int port;

	private volatile LocalRedisServer current;

	private int restarts;

	private DurableRedisServer(Path binary, Path directory, int port) {
		this.binary = binary;
		this.directory = directory;
		this.port = port;
		this.current = LocalRedisServer.startIn(binary, port, directory, false, DURABLE);
	}

	/** Starts a durable server from {@code binary} on a free loopback port. */
	static DurableRedisServer start(Path binary) {
		int port = FreePorts.any();
		Path directory = LocalRedisServer.createDirectory(port);
		try {
			return new DurableRedisServer(binary, directory, port);
		}
		catch (RuntimeException ex) {
			LocalRedisServer.deleteDirectory(directory);
			throw ex;
		}
	}

	/**
	 * Kills the server as a crash would, then starts it again on the same port and waits until it
	 * has loaded its append-only file and answers {@code PING}.
	 */
	public synchronized void crashAndRestart() {
		this.current.kill();
		this.current.close();
		for (int attempt = 1;; attempt++) {
			try {
				this.current = LocalRedisServer.startIn(this.binary, this.port, this.directory, false, DURABLE);
				break;
			}
			catch (IllegalStateException ex) {
				// the killed process's port can take a moment to be free again
				if (attempt == 5) {
					throw ex;
				}
				pause(200);
			}
		}
		this.restarts++;
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while restarting redis-server", ex);
		}
	}

	/** How many times {@link #crashAndRestart()} ran. */
	public synchronized int restarts() {
		return this.restarts;
	}

	@Override
	public RedisEndpoint endpoint() {
		return this.current.endpoint();
	}

	@Override
	public String description() {
		return this.current.description() + ", append-only, fsync always";
	}

	@Override
	public void kill() {
		this.current.kill();
	}

	@Override
	public synchronized void close() {
		this.current.close();
		LocalRedisServer.deleteDirectory(this.directory);
	}

}
