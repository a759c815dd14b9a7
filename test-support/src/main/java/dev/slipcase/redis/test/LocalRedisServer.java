package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A {@code redis-server} process started from a local binary, listening on a free loopback port,
 * with its own temporary directory and persistence off. {@link #close()} stops the process and
 * deletes the directory; a JVM shutdown hook does the same for servers a test forgot.
 */
final class LocalRedisServer implements RedisServer {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private static final int BIND_ATTEMPTS = 5;

	private final Process process;

	private final Path directory;

	private final RedisEndpoint endpoint;

	private final String description;

	private final boolean ownsDirectory;

	private volatile boolean closed;

	private LocalRedisServer(Process process, Path directory, boolean ownsDirectory, RedisEndpoint endpoint,
			String binary) {
		this.process = process;
		this.directory = directory;
		this.ownsDirectory = ownsDirectory;
		this.endpoint = endpoint;
		this.description = binary + " on " + endpoint + " (pid " + process.pid() + ")";
	}

	/** Starts a standalone server on a free port. */
	static LocalRedisServer start(Path binary) {
		return start(binary, FreePorts::any, List.of());
	}

	/**
	 * Starts a server on a port from {@code ports}, retrying with another port when the chosen one
	 * turns out to be taken.
	 * @param extraArguments further {@code --name value} arguments, such as cluster settings
	 */
	static LocalRedisServer start(Path binary, IntSupplier ports, List<String> extraArguments) {
		IllegalStateException last = null;
		for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
			try {
				return startOnce(binary, ports.getAsInt(), extraArguments);
			}
			catch (PortTakenException ex) {
				last = ex;
			}
		}
		throw new IllegalStateException("Could not start " + binary + " after " + BIND_ATTEMPTS
				+ " attempts: every chosen port was taken", last);
	}

	private static LocalRedisServer startOnce(Path binary, int port, List<String> extraArguments) {
		return startIn(binary, port, createDirectory(port), true, extraArguments);
	}

	/**
	 * Starts a server on {@code port} in {@code directory}, which it deletes on {@link #close()}
	 * only when it {@code ownsDirectory}: a server restarted in the same directory finds its
	 * append-only file there.
	 */
	static LocalRedisServer startIn(Path binary, int port, Path directory, boolean ownsDirectory,
			List<String> extraArguments) {
		Path log = directory.resolve("redis.log");
		List<String> command = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port),
				"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
				"--dir", directory.toString(), "--logfile", log.toString()));
		command.addAll(extraArguments);
		Process process;
		try {
			process = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("stdout.log").toFile())
				.start();
		}
		catch (IOException ex) {
			if (ownsDirectory) {
				deleteDirectory(directory);
			}
			throw new UncheckedIOException("Could not run " + binary, ex);
		}
		LocalRedisServer server = new LocalRedisServer(process, directory, ownsDirectory, RedisEndpoint.loopback(port),
				binary.toString());
		StartedServers.register(server);
		server.awaitReady(log);
		return server;
	}

	static Path createDirectory(int port) {
		try {
			return Files.createTempDirectory("slipcase-redis-" + port + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a directory for redis-server", ex);
		}
	}

	private void awaitReady(Path log) {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				String output = readLogs(log);
				close();
				if (output.contains("Address already in use")) {
					throw new PortTakenException(this.endpoint);
				}
				throw new IllegalStateException("redis-server exited with code " + this.process.exitValue()
						+ " before answering PING: " + output);
			}
			if (isRunning()) {
				return;
			}
			sleep(20);
		}
		String output = readLogs(log);
		close();
		throw new IllegalStateException(
				"redis-server did not answer PING on " + this.endpoint + " within " + START_TIMEOUT + ": " + output);
	}

	private String readLogs(Path log) {
		StringBuilder output = new StringBuilder();
		for (Path file : List.of(log, this.directory.resolve("stdout.log"))) {
			try {
				if (Files.exists(file)) {
					output.append(Files.readString(file, StandardCharsets.UTF_8));
				}
			}
			catch (IOException ex) {
				output.append("(could not read ").append(file).append(": ").append(ex.getMessage()).append(')');
			}
		}
		return output.toString().strip();
	}

	@Override
	public RedisEndpoint endpoint() {
		return this.endpoint;
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public void kill() {
		try {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while killing " + this.description, ex);
		}
	}

	/** The server's process, for tests that kill it to simulate a crash. */
	Process process() {
		return this.process;
	}

	/** The server's own directory, deleted on {@link #close()}. */
	Path directory() {
		return this.directory;
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (this.process.isAlive()) {
			this.process.destroy();
			try {
				if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
					this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				this.process.destroyForcibly();
				Thread.currentThread().interrupt();
			}
		}
		if (this.ownsDirectory) {
			deleteDirectory(this.directory);
		}
		StartedServers.unregister(this);
	}

	static void deleteDirectory(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// best effort: the directory is under java.io.tmpdir
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
		}
	}

	/** The chosen port was taken between the check and the server's bind. */
	private static final class PortTakenException extends IllegalStateException {

		PortTakenException(RedisEndpoint endpoint) {
			super("Port " + endpoint.port() + " was taken before redis-server could bind it");
		}

	}

}
