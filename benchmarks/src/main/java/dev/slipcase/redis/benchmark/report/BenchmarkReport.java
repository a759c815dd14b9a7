package dev.slipcase.redis.benchmark.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Writes the benchmark report into a folder: {@code README.md} (the Markdown report) and
 * {@code charts/*.svg}, from JMH results, the baselines to compare them with, and the environment.
 * The JMH JSON itself is written next to them by whoever ran the benchmarks.
 */
public final class BenchmarkReport {

	/** The report's file name inside the output folder. */
	public static final String REPORT_FILE = "README.md";

	/** The charts' folder inside the output folder. */
	public static final String CHARTS_FOLDER = "charts";

	private final List<BenchmarkResult> results;

	private final List<Baseline> baselines;

	private final Environment environment;

	private final Map<String, String> extraSections = new LinkedHashMap<>();

	public BenchmarkReport(List<BenchmarkResult> results, List<Baseline> baselines, Environment environment) {
		this.results = List.copyOf(results);
		this.baselines = List.copyOf(baselines);
		this.environment = environment;
	}

	/** Adds a section of Markdown (a table another tool measured, say) after the comparisons. */
	public BenchmarkReport section(String title, String markdown) {
		this.extraSections.put(title, markdown);
		return this;
	}

	/**
	 * Writes the report and its charts into {@code folder}, creating it as needed.
	 * @return the report file
	 */
	public Path writeTo(Path folder) throws IOException {
		Files.createDirectories(folder.resolve(CHARTS_FOLDER));
		MarkdownReport report = new MarkdownReport("Slipcase benchmark report")
			.paragraph("Every Slipcase figure sits beside its baseline from the same run. Produced by the command "
					+ "in the environment table; regenerate rather than edit.")
			.environment(this.environment);
		for (Baseline baseline : this.baselines) {
			List<ComparisonRow> rows = Comparisons.of(this.results, baseline);
			if (!rows.isEmpty()) {
				report.comparison(baseline, title(baseline), rows, charts(folder, baseline, rows));
			}
		}
		report.sections(this.extraSections);
		Path file = folder.resolve(REPORT_FILE);
		Files.writeString(file, report.toString(), StandardCharsets.UTF_8);
		return file;
	}

	/**
	 * The section's title: the benchmark class, and the baseline too when the class has more than
	 * one, e.g. {@code TemplateBenchmark vs lettuce-bytes-jackson (writes=each)}.
	 */
	private String title(Baseline baseline) {
		return isOnlyBaselineOfItsClass(baseline) ? baseline.benchmarkClass()
				: baseline.benchmarkClass() + " vs " + baseline.label();
	}

	private boolean isFirstBaselineOfItsClass(Baseline baseline) {
		return baselinesOfItsClass(baseline).get(0).equals(baseline);
	}

	private boolean isOnlyBaselineOfItsClass(Baseline baseline) {
		return baselinesOfItsClass(baseline).size() == 1;
	}

	private List<Baseline> baselinesOfItsClass(Baseline baseline) {
		return this.baselines.stream().filter((other) -> other.benchmarkClass().equals(baseline.benchmarkClass())).toList();
	}

	private List<String> charts(Path folder, Baseline baseline, List<ComparisonRow> rows) throws IOException {
		List<String> charts = new ArrayList<>();
		Map<String, List<ComparisonRow>> byMethod = new LinkedHashMap<>();
		rows.forEach((row) -> byMethod.computeIfAbsent(row.result().method(), (m) -> new ArrayList<>()).add(row));
		for (Map.Entry<String, List<ComparisonRow>> method : byMethod.entrySet()) {
			String name = baseline.benchmarkClass() + "." + method.getKey();
			// the first baseline of a class keeps the plain file name that pages link to
			String file = isFirstBaselineOfItsClass(baseline) ? fileName(name)
					: fileName(name + " vs " + baseline.baselineValue());
			String speedChart = CHARTS_FOLDER + "/" + file + "-speedup.svg";
			if (BarCharts.write(folder.resolve(speedChart), name + ": speed-up vs " + baseline.label(),
					"× (higher is faster)", ratios(method.getValue(), ComparisonRow::speedup))) {
				charts.add(speedChart);
			}
			String allocationChart = CHARTS_FOLDER + "/" + file + "-allocation.svg";
			if (BarCharts.write(folder.resolve(allocationChart),
					name + ": bytes allocated per op vs " + baseline.label(), "× (lower is less garbage)",
					ratios(method.getValue(), ComparisonRow::allocationRatio))) {
				charts.add(allocationChart);
			}
		}
		return charts;
	}

	/** The ratio of each row, grouped by the row's group without the method name the chart already says. */
	private static Map<String, Map<String, Double>> ratios(List<ComparisonRow> rows,
			Function<ComparisonRow, @Nullable Ratio> ratio) {
		Map<String, Map<String, Double>> values = new LinkedHashMap<>();
		for (ComparisonRow row : rows) {
			Ratio value = ratio.apply(row);
			if (value != null && !Double.isNaN(value.value())) {
				String group = row.group().substring(row.result().method().length()).strip();
				values.computeIfAbsent(group.isEmpty() ? row.result().method() : group, (g) -> new LinkedHashMap<>())
					.put(row.candidate(), value.value());
			}
		}
		return values;
	}

	private static String fileName(String name) {
		return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
	}

}
