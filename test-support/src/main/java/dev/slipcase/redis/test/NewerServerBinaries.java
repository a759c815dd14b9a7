package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Finds the Redis 8.0 and Valkey 8.0 servers, which Debian 12 does not package: a binary named by
 * {@code SLIPCASE_REDIS8_SERVER} / {@code SLIPCASE_VALKEY8_SERVER}, else the ones under
 * {@code SLIPCASE_SERVERS_DIR} (default {@code ~/.cache/slipcase/servers}), which the project's
 * {@code .ci/newer-redis} script puts there from Debian's own packages; when they are missing,
 * this class runs that script once (one JVM at a time, under a file lock), so that
 * {@code ./mvnw verify} needs nothing installed by hand.
 */
final class NewerServerBinaries {

	static final String REDIS8_VARIABLE = "SLIPCASE_REDIS8_SERVER";

	static final String VALKEY8_VARIABLE = "SLIPCASE_VALKEY8_SERVER";

	static final String DIRECTORY_VARIABLE = "SLIPCASE_SERVERS_DIR";

	private static final String SCRIPT = ".ci/newer-redis";

	private NewerServerBinaries() {
	}

	/** Redis 8.0's {@code redis-server}. */
	static Path redis8() {
		return find(REDIS8_VARIABLE, "redis-8/redis-server");
	}

	/** Valkey 8.0's {@code valkey-server}. */
	static Path valkey8() {
		return find(VALKEY8_VARIABLE, "valkey-8/valkey-server");
	}

	private static synchronized Path find(String variable, String relative) {
		String override = RedisBinaries.setting(variable);
		if (override != null) {
			Path binary = Path.of(override);
			if (!Files.isExecutable(binary)) {
				throw new IllegalStateException(variable + "=" + binary + " is not an executable file");
			}
			return binary;
		}
		Path directory = directory();
		Path binary = directory.resolve(relative);
		if (!Files.isExecutable(binary)) {
			install(directory);
		}
		if (!Files.isExecutable(binary)) {
			throw new IllegalStateException(SCRIPT + " did not put " + binary + " in place");
		}
		return binary;
	}

	private static Path directory() {
		String configured = RedisBinaries.setting(DIRECTORY_VARIABLE);
		return (configured != null) ? Path.of(configured)
				: Path.of(System.getProperty("user.home"), ".cache", "slipcase", "servers");
	}

	private static void install(Path directory) {
		Path script = script();
		try {
			Files.createDirectories(directory);
			try (FileChannel channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
				Path log = Files.createTempFile("slipcase-newer-redis", ".log");
				try {
					Process process = new ProcessBuilder("bash", script.toString(), directory.toString())
						.redirectErrorStream(true)
						.redirectOutput(log.toFile())
						.start();
					if (!process.waitFor(10, TimeUnit.MINUTES)) {
						process.destroyForcibly();
						throw new IllegalStateException(script + " did not finish within 10 minutes");
					}
					if (process.exitValue() != 0) {
						throw new IllegalStateException(script + " " + directory + " failed (exit "
								+ process.exitValue() + "): " + Files.readString(log, StandardCharsets.UTF_8)
								+ " Set " + REDIS8_VARIABLE + " and " + VALKEY8_VARIABLE
								+ " to servers of your own instead.");
					}
				}
				finally {
					Files.deleteIfExists(log);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + script, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + script, ex);
		}
	}

	/** The project's script, found from the working directory up (Maven runs tests in a module). */
	private static Path script() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve(SCRIPT);
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("No Redis 8 / Valkey 8 for the tests: " + SCRIPT
				+ " was not found above " + Path.of("").toAbsolutePath() + "; set " + REDIS8_VARIABLE + " and "
				+ VALKEY8_VARIABLE + " to the servers' binaries.");
	}

}
