package dev.slipcase.redis.test;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Redis and Valkey servers the fixture fetches from Debian's own packages: Redis 7.0 (Debian
 * 12's, for a machine with no {@code redis-server} of its own), Redis 8.0, Valkey 8.0 and Valkey
 * 9.1 (which Debian 12 does not package). A binary named by {@code SLIPCASE_REDIS8_SERVER} /
 * {@code SLIPCASE_VALKEY8_SERVER} / {@code SLIPCASE_VALKEY9_SERVER} wins; otherwise the ones under {@code SLIPCASE_SERVERS_DIR}
 * (default {@code servers} in {@link SystemBinaries#cache() the cache}), which the project's
 * {@code .ci/fetch-redis} script puts there, run by this class when one is missing, so that
 * {@code ./mvnw verify} needs nothing installed by hand.
 */
final class FetchedServerBinaries {

	static final String REDIS8_VARIABLE = "SLIPCASE_REDIS8_SERVER";

	static final String VALKEY8_VARIABLE = "SLIPCASE_VALKEY8_SERVER";

	static final String VALKEY9_VARIABLE = "SLIPCASE_VALKEY9_SERVER";

	static final String DIRECTORY_VARIABLE = "SLIPCASE_SERVERS_DIR";

	private static final FetchScript SCRIPT = new FetchScript("fetch-redis");

	private FetchedServerBinaries() {
	}

	/** Redis 7.0's {@code redis-server}, Debian 12's; {@code redis-cli} and {@code redis-benchmark} sit beside it. */
	static Path redis7() {
		return fetched("redis-7/redis-server");
	}

	/** Redis 8.0's {@code redis-server}. */
	static Path redis8() {
		return find(REDIS8_VARIABLE, "redis-8/redis-server");
	}

	/** Valkey 8.0's {@code valkey-server}. */
	static Path valkey8() {
		return find(VALKEY8_VARIABLE, "valkey-8/valkey-server");
	}

	/** Valkey 9.1's {@code valkey-server}: hash-field TTLs that convert the hash (valkey-io/valkey#2618). */
	static Path valkey9() {
		return find(VALKEY9_VARIABLE, "valkey-9/valkey-server");
	}

	private static Path find(String variable, String relative) {
		String override = RedisBinaries.setting(variable);
		if (override != null) {
			Path binary = Path.of(override);
			if (!Files.isExecutable(binary)) {
				throw new IllegalStateException(variable + "=" + binary + " is not an executable file");
			}
			return binary;
		}
		return fetched(relative);
	}

	/** A binary under the servers' folder, fetching the servers first when it is missing. */
	static synchronized Path fetched(String relative) {
		Path directory = directory();
		Path binary = directory.resolve(relative);
		if (!Files.isExecutable(binary)) {
			SCRIPT.run(directory, "Set " + RedisBinaries.SERVER_VARIABLE + ", " + REDIS8_VARIABLE + ", "
					+ VALKEY8_VARIABLE + " and " + VALKEY9_VARIABLE + " to servers of your own instead.");
		}
		if (!Files.isExecutable(binary)) {
			throw new IllegalStateException(".ci/fetch-redis did not put " + binary + " in place");
		}
		return binary;
	}

	private static Path directory() {
		String configured = RedisBinaries.setting(DIRECTORY_VARIABLE);
		return (configured != null) ? Path.of(configured) : SystemBinaries.cache().resolve("servers");
	}

}
