package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;

/**
 * A real Redis server a test can talk to: one the fixture started (a local {@code redis-server}
 * process or a Testcontainers container) or an external one named by {@code SLIPCASE_REDIS_URL}.
 * <p>
 * Closing a server the fixture started stops it and removes its files; closing an external server
 * does nothing. Instances are thread-safe.
 */
public interface RedisServer extends AutoCloseable {

	/** Where the server listens, never {@code null}. */
	RedisEndpoint endpoint();

	/** How the server was obtained, for messages: {@code "redis-server 7.0.15 (pid 123)"}. */
	String description();

	/** The server's {@code redis_version}, from {@code INFO server}, e.g. {@code "7.0.15"}. */
	default String version() {
		return info("server", "redis_version");
	}

	/** Whether the server is at least the given {@code major.minor} version. */
	default boolean isAtLeast(int major, int minor) {
		String[] parts = version().split("\\.");
		int actualMajor = Integer.parseInt(parts[0]);
		int actualMinor = (parts.length > 1) ? Integer.parseInt(parts[1]) : 0;
		return (actualMajor > major) || (actualMajor == major && actualMinor >= minor);
	}

	/**
	 * Reads one field of an {@code INFO} section.
	 * @throws IllegalStateException when the field is absent
	 */
	default String info(String section, String field) {
		String info = (String) command("INFO", section);
		return InfoField.read(info, field);
	}

	/**
	 * How many times the server has run {@code command} since it started or since
	 * {@code CONFIG RESETSTAT}: the {@code calls} of its {@code cmdstat_} line in
	 * {@code INFO commandstats}, or 0 when there is none (Redis lists only commands it has run).
	 * @param command the command's name in any case, e.g. {@code "get"}; a subcommand as
	 * {@code "client|kill"}
	 */
	default long calls(String command) {
		String prefix = "cmdstat_" + command.toLowerCase(Locale.ROOT) + ":calls=";
		String stats = (String) command("INFO", "commandstats");
		for (String line : stats.split("\r?\n")) {
			if (line.startsWith(prefix)) {
				return Long.parseLong(line.substring(prefix.length(), line.indexOf(',', prefix.length())));
			}
		}
		return 0;
	}

	/** The server's replication role, from {@code INFO replication}: {@code "master"} or {@code "slave"}. */
	default String role() {
		return info("replication", "role");
	}

	/**
	 * Waits until the server has taken {@code role}, as a replica does when it is promoted after a
	 * failover, polling every 50 ms.
	 * @param role {@code "master"} or {@code "slave"}
	 * @param timeout how long to wait at most
	 * @throws IllegalStateException when the server has not taken the role within {@code timeout}
	 */
	default void awaitRole(String role, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!role.equals(role())) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(description() + " did not become " + role + " within " + timeout);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + description() + " to become " + role,
						ex);
			}
		}
	}

	/**
	 * Runs one command on a fresh connection, for fixture housekeeping such as {@code FLUSHALL}.
	 * Tests talk to the server through the client under test instead.
	 */
	default Object command(String... args) {
		try (RespConnection connection = RespConnection.open(endpoint(), Duration.ofSeconds(10))) {
			return connection.command(args);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("'" + String.join(" ", args) + "' failed on " + description(), ex);
		}
	}

	/** Removes every key from every database. */
	default void flushAll() {
		command("FLUSHALL");
	}

	/** Whether the server answers {@code PING}. */
	default boolean isRunning() {
		try (RespConnection connection = RespConnection.open(endpoint(), Duration.ofSeconds(1))) {
			return "PONG".equals(connection.command("PING"));
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Kills the server's process with {@code SIGKILL}, as a crash would, and waits for it to exit.
	 * @throws UnsupportedOperationException for a server the fixture did not start
	 */
	default void kill() {
		throw new UnsupportedOperationException("Only a server the fixture started can be killed: " + description());
	}

	/** Stops the server if the fixture started it. */
	@Override
	void close();

}
