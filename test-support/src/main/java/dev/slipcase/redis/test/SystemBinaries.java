package dev.slipcase.redis.test;

import java.nio.file.Path;

/**
 * The switch that makes the fixture ignore what the machine has installed ({@code redis-server}
 * and {@code redis-cli} on the {@code PATH}, a Docker engine, {@code /usr/bin/chromium}) and use
 * what it fetches into {@link #cache() the cache} instead, so that the paths a fresh machine takes
 * can be proven on one that has everything: {@code SLIPCASE_IGNORE_SYSTEM_BINARIES=true}, as an
 * environment variable or a system property. Binaries named outright ({@code SLIPCASE_REDIS_SERVER}
 * and the like) are still used.
 */
public final class SystemBinaries {

	/** Environment variable (or system property) that, set to {@code true}, ignores the system's binaries. */
	public static final String IGNORE_VARIABLE = "SLIPCASE_IGNORE_SYSTEM_BINARIES";

	/** Environment variable (or system property) naming the cache folder, {@code ~/.cache/slipcase} by default. */
	public static final String CACHE_VARIABLE = "SLIPCASE_CACHE_DIR";

	private SystemBinaries() {
	}

	/** Whether the system's binaries are to be ignored. */
	public static boolean ignored() {
		return Boolean.parseBoolean(RedisBinaries.setting(IGNORE_VARIABLE));
	}

	/** The folder that fetched binaries are kept in, across runs. */
	public static Path cache() {
		String configured = RedisBinaries.setting(CACHE_VARIABLE);
		return (configured != null) ? Path.of(configured)
				: Path.of(System.getProperty("user.home"), ".cache", "slipcase");
	}

}
