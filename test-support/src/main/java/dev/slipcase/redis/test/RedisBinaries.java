package dev.slipcase.redis.test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Finds the {@code redis-server} and {@code redis-cli} binaries: {@code SLIPCASE_REDIS_SERVER}
 * (and {@code SLIPCASE_REDIS_CLI}) when set, otherwise the {@code PATH}. A {@code redis-cli} next
 * to an overridden {@code redis-server} is preferred over the one on the {@code PATH}, so that a
 * cluster is created by the matching version.
 */
final class RedisBinaries {

	static final String SERVER_VARIABLE = "SLIPCASE_REDIS_SERVER";

	static final String CLI_VARIABLE = "SLIPCASE_REDIS_CLI";

	private RedisBinaries() {
	}

	/**
	 * The {@code redis-server} to start, or empty when there is none.
	 * @throws IllegalStateException when {@code SLIPCASE_REDIS_SERVER} names a file that cannot run
	 */
	static Optional<Path> server() {
		String override = setting(SERVER_VARIABLE);
		if (override != null) {
			return Optional.of(executable(Path.of(override), SERVER_VARIABLE));
		}
		return onPath("redis-server");
	}

	/** The {@code redis-cli} to use with the given server binary, or empty when there is none. */
	static Optional<Path> cli(Path server) {
		String override = setting(CLI_VARIABLE);
		if (override != null) {
			return Optional.of(executable(Path.of(override), CLI_VARIABLE));
		}
		Path sibling = server.resolveSibling("redis-cli");
		if (Files.isExecutable(sibling)) {
			return Optional.of(sibling);
		}
		return onPath("redis-cli");
	}

	static @Nullable String setting(String name) {
		String value = System.getProperty(name, System.getenv(name));
		return (value == null || value.isBlank()) ? null : value.trim();
	}

	private static Path executable(Path path, String variable) {
		if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
			throw new IllegalStateException(variable + "=" + path + " is not an executable file");
		}
		return path;
	}

	private static Optional<Path> onPath(String name) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String dir : path.split(File.pathSeparator)) {
			if (!dir.isEmpty()) {
				Path candidate = Path.of(dir, name);
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return Optional.of(candidate);
				}
			}
		}
		return Optional.empty();
	}

}
