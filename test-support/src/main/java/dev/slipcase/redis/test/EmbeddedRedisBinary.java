package dev.slipcase.redis.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The Redis 6.2 {@code redis-server} binary shipped inside the {@code embedded-redis} jar,
 * extracted once per JVM to a temporary file, so tests can run against the oldest Redis Slipcase
 * supports (which names listpack settings "ziplist") on any Linux x86-64 or arm64 machine.
 */
final class EmbeddedRedisBinary {

	private static Path extracted;

	private EmbeddedRedisBinary() {
	}

	static synchronized Path redis62() {
		if (extracted == null) {
			extracted = extract(resourceName());
		}
		return extracted;
	}

	private static String resourceName() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		if (os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
			return "redis-server-6.2.6-v5-linux-amd64";
		}
		if (os.contains("linux") && arch.equals("aarch64")) {
			return "redis-server-6.2.7-linux-arm64";
		}
		if (os.contains("mac") && arch.equals("aarch64")) {
			return "redis-server-6.2.6-v5-darwin-arm64";
		}
		if (os.contains("mac")) {
			return "redis-server-6.2.6-v5-darwin-amd64";
		}
		throw new IllegalStateException("The embedded-redis jar has no Redis 6.2 binary for " + os + "/" + arch);
	}

	private static Path extract(String resource) {
		try (InputStream in = EmbeddedRedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException(resource + " not found: is the embedded-redis jar on the classpath?");
			}
			Path file = Files.createTempFile("slipcase-redis-6.2-", "");
			Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
			file.toFile().setExecutable(true);
			file.toFile().deleteOnExit();
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not extract " + resource, ex);
		}
	}

}
