package dev.slipcase.redis.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A Chromium and its driver for browser tests: Debian's {@code /usr/bin/chromium} and
 * {@code /usr/bin/chromedriver} when both are installed and answer {@code --version}; otherwise
 * Debian's {@code chromium} and {@code chromium-driver} (with the libraries the machine lacks and
 * fonts of their own) that the project's {@code .ci/fetch-chromium} script puts under
 * {@code chromium} in {@link SystemBinaries#cache() the cache}, run by this class once and reused
 * by later runs. With {@link SystemBinaries#IGNORE_VARIABLE} set, the installed ones are skipped.
 *
 * @param binary the browser to start (a wrapper script when fetched)
 * @param driver the matching chromedriver
 * @param version what the browser printed for {@code --version}
 */
public record HeadlessChromium(Path binary, Path driver, String version) {

	private static final Path SYSTEM_BINARY = Path.of("/usr/bin/chromium");

	private static final Path SYSTEM_DRIVER = Path.of("/usr/bin/chromedriver");

	private static final FetchScript SCRIPT = new FetchScript("fetch-chromium");

	private static HeadlessChromium found;

	/**
	 * The browser to test with, fetched on first use when the machine has none; prints which one
	 * and its version.
	 * @throws IllegalStateException when none is installed and fetching fails, with the script's
	 * words naming the package and the archive
	 */
	public static synchronized HeadlessChromium find() {
		if (found == null) {
			found = locate();
			System.out.println("Browser tests use " + found.version() + " (" + found.binary() + ")");
		}
		return found;
	}

	private static HeadlessChromium locate() {
		if (!SystemBinaries.ignored() && Files.isExecutable(SYSTEM_BINARY) && Files.isExecutable(SYSTEM_DRIVER)) {
			String version = browserVersion(SYSTEM_BINARY);
			if (version != null && driverVersion(SYSTEM_DRIVER) != null) {
				return new HeadlessChromium(SYSTEM_BINARY, SYSTEM_DRIVER, version);
			}
		}
		Path directory = SystemBinaries.cache().resolve("chromium");
		SCRIPT.run(directory, "Or install Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver).");
		Path binary = directory.resolve("chromium");
		Path driver = directory.resolve("chromedriver");
		String version = browserVersion(binary);
		if (version == null || driverVersion(driver) == null) {
			throw new IllegalStateException(".ci/fetch-chromium left no browser that runs in " + directory
					+ ": delete the folder to fetch it again");
		}
		return new HeadlessChromium(binary, driver, version);
	}

	private static @Nullable String browserVersion(Path binary) {
		return version(binary, "--headless=new", "--no-sandbox", "--version");
	}

	private static @Nullable String driverVersion(Path driver) {
		return version(driver, "--version");
	}

	/** What the binary prints for these arguments, or {@code null} when it does not run. */
	private static @Nullable String version(Path binary, String... arguments) {
		List<String> command = new ArrayList<>();
		command.add(binary.toString());
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return null;
			}
			return (process.exitValue() == 0 && !output.isEmpty()) ? output : null;
		}
		catch (IOException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while asking " + binary + " for its version", ex);
		}
	}

}
