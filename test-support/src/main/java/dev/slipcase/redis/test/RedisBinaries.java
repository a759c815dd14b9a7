package dev.slipcase.redis.test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Finds the {@code redis-server}, {@code redis-cli} and {@code redis-benchmark} binaries:
 * {@code SLIPCASE_REDIS_SERVER} (and {@code SLIPCASE_REDIS_CLI}) when set, otherwise the
 * {@code PATH}, otherwise Debian 12's Redis 7.0 that {@link FetchedServerBinaries} fetches into
 * the cache; the {@code PATH} is skipped when {@link SystemBinaries#ignored()}. A tool next to the
 * server binary is preferred over the one on the {@code PATH}, so that a cluster is created by the
 * matching version.
 */
final class RedisBinaries {

	static final String SERVER_VARIABLE = "SLIPCASE_REDIS_SERVER";

	static final String CLI_VARIABLE = "SLIPCASE_REDIS_CLI";

	private RedisBinaries() {
	}

	/**
	 * The {@code redis-server} to start, fetched when the machine has none.
	 * @throws IllegalStateException when {@code SLIPCASE_REDIS_SERVER} names a file that cannot run,
	 * or when fetching fails (saying what failed)
	 */
	static Path server() {
		String override = setting(SERVER_VARIABLE);
		if (override != null) {
			return executable(Path.of(override), SERVER_VARIABLE);
		}
		return system("redis-server").orElseGet(FetchedServerBinaries::redis7);
	}

	/** The {@code redis-cli} to use with the given server binary. */
	static Path cli(Path server) {
		String override = setting(CLI_VARIABLE);
		if (override != null) {
			return executable(Path.of(override), CLI_VARIABLE);
		}
		return tool(server, "redis-cli");
	}

	/** The {@code redis-benchmark} to use with the given server binary. */
	static Path benchmark(Path server) {
		return tool(server, "redis-benchmark");
	}

	private static Path tool(Path server, String name) {
		Path sibling = server.resolveSibling(name);
		if (Files.isExecutable(sibling)) {
			return sibling;
		}
		return system(name).orElseGet(() -> FetchedServerBinaries.fetched("redis-7/" + name));
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

	/** The binary of that name on the {@code PATH}, unless the system's binaries are ignored. */
	private static Optional<Path> system(String name) {
		String path = System.getenv("PATH");
		if (path == null || SystemBinaries.ignored()) {
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
