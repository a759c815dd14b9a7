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

import org.jspecify.annotations.Nullable;

/**
 * One of the project's {@code .ci/fetch-*} scripts, which put what the tests run (Redis and Valkey
 * servers, a browser) into a folder of the user's cache from Debian's own packages, without root.
 * The fixture runs a script when what it needs is missing: one JVM at a time per folder (a file
 * lock in the folder, so parallel test JVMs download once), ten minutes at most. A script that
 * fails fails the caller with the script's own words, which name the package and the archive.
 */
final class FetchScript {

	private static final long TIMEOUT_MINUTES = 10;

	private final String name;

	private final @Nullable Path script;

	/**
	 * @param name the script's file name in the project's {@code .ci} folder
	 */
	FetchScript(String name) {
		this(name, null);
	}

	private FetchScript(String name, @Nullable Path script) {
		this.name = name;
		this.script = script;
	}

	/** A script at a path of its own rather than in the project's {@code .ci} folder. */
	static FetchScript at(Path script) {
		return new FetchScript(script.getFileName().toString(), script);
	}

	/**
	 * Runs the script with {@code directory} as its one argument, under the folder's lock. The
	 * script itself returns at once when the folder already holds what it fetches.
	 * @param remedy what the user can do instead, added to a failure's message
	 * @throws IllegalStateException when the script fails, times out or is not found
	 */
	void run(Path directory, String remedy) {
		Path script = script(remedy);
		try {
			Files.createDirectories(directory);
			try (FileChannel channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
				Path log = Files.createTempFile("slipcase-" + this.name, ".log");
				try {
					Process process = new ProcessBuilder("bash", script.toString(), directory.toString())
						.redirectErrorStream(true)
						.redirectOutput(log.toFile())
						.start();
					if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
						process.destroyForcibly();
						throw new IllegalStateException(script + " " + directory + " did not finish within "
								+ TIMEOUT_MINUTES + " minutes: " + Files.readString(log, StandardCharsets.UTF_8)
								+ " " + remedy);
					}
					if (process.exitValue() != 0) {
						throw new IllegalStateException(script + " " + directory + " failed (exit "
								+ process.exitValue() + "): " + Files.readString(log, StandardCharsets.UTF_8).strip()
								+ " " + remedy);
					}
				}
				finally {
					Files.deleteIfExists(log);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + script + ". " + remedy, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + script, ex);
		}
	}

	/** The project's script, found from the working directory up (Maven runs tests in a module). */
	private Path script(String remedy) {
		if (this.script != null) {
			return this.script;
		}
		String relative = ".ci/" + this.name;
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve(relative);
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException(relative + " was not found above " + Path.of("").toAbsolutePath() + ". "
				+ remedy);
	}

}
