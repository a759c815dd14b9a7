package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

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
