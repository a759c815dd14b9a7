package dev.slipcase.redis.benchmark.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.slipcase.redis.benchmark.report.BenchmarkReport;
import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.Environment;
import dev.slipcase.redis.benchmark.report.JmhResults;

/**
 * Writes a report folder's report again from its {@code jmh-result.json}, with the report code of
 * this build, measuring nothing: for a change to how the report presents figures, without an
 * hour of benchmarks. The environment table and the sections measured outside JMH (memory per
 * key, server time, stored sizes, the server ceiling) are kept as the folder's report has them,
 * since they describe the run that produced the results; the sections derived from the results
 * alone (the near cache's) are derived again, like the comparisons. Sections after the measured
 * ones, runs of their own that each name their command and date, are kept as they are.
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.benchmark.suite.RenderReport docs/benchmarks</pre>
 */
public final class RenderReport {

	private static final Pattern SECTION_HEADING = Pattern.compile("^## (.+)$", Pattern.MULTILINE);

	private static final Pattern ENVIRONMENT_ROW = Pattern.compile("^\\| ([^|]+) \\| `(.*)` \\|$", Pattern.MULTILINE);

	private RenderReport() {
	}

	public static void main(String[] args) throws IOException {
		Path folder = Path.of((args.length > 0) ? args[0] : "docs/benchmarks");
		System.out.println("Report written to " + render(folder));
	}

	/**
	 * Renders the report in {@code folder} again.
	 * @return the report file
	 * @throws IllegalStateException when the current report lacks its environment or a measured section
	 */
	static Path render(Path folder) throws IOException {
		String current = Files.readString(folder.resolve(BenchmarkReport.REPORT_FILE), StandardCharsets.UTF_8);
		List<BenchmarkResult> results = JmhResults.read(folder.resolve(BenchmarkSuite.RESULTS_FILE));
		BenchmarkReport report = BenchmarkSuite
			.derivedSections(new BenchmarkReport(results, BenchmarkSuite.baselines(), environment(current)), results);
		for (String title : BenchmarkSuite.MEASURED_SECTIONS) {
			report.section(title, section(current, title));
		}
		String lastMeasured = BenchmarkSuite.MEASURED_SECTIONS.get(BenchmarkSuite.MEASURED_SECTIONS.size() - 1);
		for (String title : sectionsAfter(current, lastMeasured)) {
			report.section(title, section(current, title));
		}
		return report.writeTo(folder);
	}

	/** The environment table of a report. */
	static Environment environment(String report) {
		String table = section(report, "Environment");
		Map<String, String> entries = new LinkedHashMap<>();
		Matcher row = ENVIRONMENT_ROW.matcher(table);
		while (row.find()) {
			entries.put(row.group(1), row.group(2));
		}
		if (!entries.containsKey("Command")) {
			throw new IllegalStateException("The report's environment table names no command");
		}
		return new Environment(entries);
	}

	/** The titles of the sections that follow the one titled {@code title}, in order. */
	static List<String> sectionsAfter(String report, String title) {
		String titleHeading = "## " + title + "\n";
		int start = report.indexOf(titleHeading);
		if (start < 0) {
			throw new IllegalStateException("The report has no section '" + title + "'");
		}
		List<String> titles = new ArrayList<>();
		Matcher heading = SECTION_HEADING.matcher(report);
		heading.region(start + titleHeading.length(), report.length());
		while (heading.find()) {
			titles.add(heading.group(1));
		}
		return titles;
	}

	/** The body of the section titled {@code title}: from its heading to the next one. */
	static String section(String report, String title) {
		String heading = "## " + title + "\n";
		int start = report.indexOf(heading);
		if (start < 0) {
			throw new IllegalStateException("The report has no section '" + title + "'");
		}
		int bodyStart = start + heading.length();
		int end = report.indexOf("\n## ", bodyStart);
		return report.substring(bodyStart, (end < 0) ? report.length() : end).strip();
	}

}
