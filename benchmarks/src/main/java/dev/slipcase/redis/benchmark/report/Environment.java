package dev.slipcase.redis.benchmark.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The machine and software a report's figures were measured on, so that they can be reproduced.
 *
 * @param entries what was measured on, in display order ({@code JDK}, {@code CPU}, ...)
 */
public record Environment(Map<String, String> entries) {

	/**
	 * Describes this JVM and machine, and the day (UTC) of the run.
	 * @param command the exact command that produced the results
	 * @param redisVersion the Redis server version benchmarks ran against, or {@code null}
	 */
	public static Environment current(String command, @Nullable String redisVersion) {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("Command", command);
		entries.put("Date", LocalDate.now(ZoneOffset.UTC).toString());
		entries.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		entries.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
				+ System.getProperty("os.arch") + ")");
		entries.put("CPU", cpuModel());
		entries.put("Cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
		entries.put("Max heap", (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
		if (redisVersion != null) {
			entries.put("Redis", redisVersion);
		}
		return new Environment(entries);
	}

	private static String cpuModel() {
		Path cpuinfo = Path.of("/proc/cpuinfo");
		try {
			if (Files.isReadable(cpuinfo)) {
				List<String> lines = Files.readAllLines(cpuinfo);
				for (String line : lines) {
					if (line.startsWith("model name")) {
						return line.substring(line.indexOf(':') + 1).trim();
					}
				}
			}
		}
		catch (IOException ex) {
			// fall through to the JVM's description
		}
		return System.getProperty("os.arch");
	}

}
