package dev.slipcase.redis.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.JmhResults;
import dev.slipcase.redis.benchmark.report.Measurement;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;

/**
 * The server's own ceiling on this machine: {@code redis-benchmark} (from the {@code PATH}) against
 * a fresh local server, SET and GET of 1 KB and 70 KB values from 1 and 8 clients, so that the
 * template benchmarks' SET+GET pairs per second can be read against what Redis itself serves here.
 * A SET+GET pair takes one SET and one GET: pairs per second are {@code 1 / (1/SET + 1/GET)}.
 */
public final class ServerCeilingReport {

	private ServerCeilingReport() {
	}

	/**
	 * Measures the ceiling on its own and prints the report's section for the
	 * {@code TemplateBenchmark} results in a JMH results file: for a run of that benchmark alone,
	 * whose figures are read against a ceiling measured the same day.
	 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.template.ServerCeilingReport docs/benchmarks/jmh-result.json</pre>
	 */
	public static void main(String[] args) {
		Path results = Path.of((args.length > 0) ? args[0] : "docs/benchmarks/jmh-result.json");
		System.out.println(markdown(measure(100_000), JmhResults.read(results)));
	}

	/**
	 * Measures each case with {@code requests} requests (a fifth of them for 70 KB values).
	 * @throws IllegalStateException when {@code redis-benchmark} cannot be run
	 */
	public static List<Row> measure(int requests) {
		List<Row> rows = new ArrayList<>();
		try (RedisServer server = RedisServers.start()) {
			for (int size : new int[] { 1024, 70_000 }) {
				for (int clients : new int[] { 1, 8, 64 }) {
					rows.add(run(server, size, clients, (size > 1024) ? Math.max(1, requests / 5) : requests));
				}
			}
		}
		return rows;
	}

	private static Row run(RedisServer server, int size, int clients, int requests) {
		List<String> command = List.of(RedisServers.benchmarkBinary().toString(), "-h", server.endpoint().host(), "-p",
				Integer.toString(server.endpoint().port()), "-t", "set,get", "-d", Integer.toString(size), "-c",
				Integer.toString(clients), "-n", Integer.toString(requests), "--csv");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
			}
			return new Row(size, clients, rate(output, "SET"), rate(output, "GET"), String.join(" ", command));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + command.get(0), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running redis-benchmark", ex);
		}
	}

	private static double rate(String csv, String test) {
		for (String line : csv.split("\n")) {
			if (line.startsWith("\"" + test + "\"")) {
				return Double.parseDouble(line.split(",")[1].replace("\"", ""));
			}
		}
		throw new IllegalStateException("redis-benchmark printed no " + test + " rate: " + csv);
	}

	/** The report's Markdown table. */
	public static String markdown(List<Row> rows) {
		StringBuilder table = new StringBuilder("""
				`redis-benchmark` against a fresh local server, the same machine as the benchmarks above; \
				a SET+GET pair is what `TemplateBenchmark.setThenGet` does once.

				| value | clients | SET/s | GET/s | SET+GET pairs/s |
				| --- | ---: | ---: | ---: | ---: |
				""");
		for (Row row : rows) {
			table.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %,.0f |%n",
					size(row), row.clients(), row.setPerSecond(), row.getPerSecond(), row.pairsPerSecond()));
		}
		if (!rows.isEmpty()) {
			table.append("\nCommand of the last case: `").append(rows.get(rows.size() - 1).command()).append("`\n");
		}
		return table.toString();
	}

	/**
	 * The report's table with, for each case, the share of its SET+GET pair rate that each
	 * {@code TemplateBenchmark.setThenGet} candidate reached with as many threads as the case has
	 * clients, on the payload of about that size ({@code ORDER} for 1 KB, {@code DOCUMENT} for 70 KB).
	 */
	public static String markdown(List<Row> rows, List<BenchmarkResult> results) {
		StringBuilder text = new StringBuilder(markdown(rows));
		StringBuilder shares = new StringBuilder();
		for (Row row : rows) {
			String payload = (row.valueBytes() >= 10 * 1024) ? "DOCUMENT" : "ORDER";
			for (BenchmarkResult result : results) {
				if (result.className().equals("TemplateBenchmark") && result.threads() == row.clients()
						&& payload.equals(result.params().get("payload"))) {
					Measurement score = result.primary();
					shares.append(String.format(Locale.ROOT, "| %s | %d | %s | %,.0f ± %,.0f | %.0f%% ± %.0f |%n",
							size(row), row.clients(), candidate(result), score.value(), score.error(),
							100 * score.value() / row.pairsPerSecond(), 100 * score.error() / row.pairsPerSecond()));
				}
			}
		}
		if (!shares.isEmpty()) {
			text.append("""

					Each end-to-end candidate's SET+GET pairs per second as a share of the server's ceiling \
					above (same value size, as many threads as `redis-benchmark` has clients, 99.9% error):

					| value | threads | candidate | pairs/s | share of ceiling |
					| --- | ---: | --- | ---: | ---: |
					""").append(shares);
		}
		return text.toString();
	}

	private static String candidate(BenchmarkResult result) {
		String writes = result.params().get("writes");
		return result.params().get("candidate") + ((writes != null) ? ", writes " + writes : "");
	}

	private static String size(Row row) {
		return (row.valueBytes() >= 10 * 1024) ? (row.valueBytes() / 1000) + " KB" : (row.valueBytes() / 1024) + " KB";
	}

	/**
	 * One case.
	 * @param valueBytes the value size
	 * @param clients the parallel connections
	 * @param setPerSecond SETs per second
	 * @param getPerSecond GETs per second
	 * @param command the command line
	 */
	public record Row(int valueBytes, int clients, double setPerSecond, double getPerSecond, String command) {

		/** SET+GET pairs per second: one SET and one GET each. */
		public double pairsPerSecond() {
			return 1 / (1 / this.setPerSecond + 1 / this.getPerSecond);
		}

	}

}
