package dev.slipcase.redis.benchmark.report;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.ProcessCostProfiler;

/**
 * Writes the benchmark report as Markdown: the environment, then per benchmark class a table of
 * every candidate beside its baseline, with ratios and errors, and links to its charts.
 */
final class MarkdownReport {

	/** The per-command costs a table shows when its runs measured them, in column order. */
	private static final List<String> COSTS = List.of(ProcessCostProfiler.CLIENT_WRITES, ProcessCostProfiler.SERVER_WRITES,
			ProcessCostProfiler.CLIENT_CPU, ProcessCostProfiler.SERVER_CPU);

	private static final String COSTS_HEADER = " client writes/cmd | server writes/cmd | client µs/cmd | server µs/cmd |";

	private static final String COSTS_ALIGNMENT = " ---: | ---: | ---: | ---: |";

	private static final String COSTS_LEGEND = "Per Redis command, counted by the kernel for the benchmark's JVM and the "
			+ "Redis server (`ProcessCostProfiler`, from `/proc/<pid>`): write system calls (`syscw`; the client's "
			+ "include its threads waking each other, an `eventfd` write each) and CPU time (user + system).\n\n";

	private final StringBuilder text = new StringBuilder();

	MarkdownReport(String title) {
		this.text.append("# ").append(title).append("\n\n");
	}

	MarkdownReport paragraph(String paragraph) {
		this.text.append(paragraph).append("\n\n");
		return this;
	}

	MarkdownReport environment(Environment environment) {
		this.text.append("## Environment\n\n| | |\n| --- | --- |\n");
		environment.entries()
			.forEach((name, value) -> this.text.append("| ").append(name).append(" | `").append(value).append("` |\n"));
		this.text.append('\n');
		return this;
	}

	MarkdownReport comparison(Baseline baseline, String heading, List<ComparisonRow> rows, List<String> charts) {
		this.text.append("## ").append(heading).append("\n\n");
		this.text.append("Baseline: `")
			.append(baseline.candidateParam())
			.append('=')
			.append(baseline.label())
			.append("`. Speed-up is baseline time / candidate time (or candidate / baseline throughput): above 1 is ")
			.append("faster. Allocation ratio is candidate / baseline bytes per operation: below 1 is less garbage. ")
			.append("Errors are JMH's 99.9% confidence half-widths, propagated into the ratios.\n\n");
		for (String chart : charts) {
			String title = chart.substring(chart.lastIndexOf('/') + 1, chart.length() - ".svg".length());
			this.text.append("![").append(title).append("](").append(chart).append(")\n\n");
		}
		boolean costs = rows.stream().anyMatch((row) -> !row.result().costs().isEmpty());
		if (costs) {
			this.text.append(COSTS_LEGEND);
		}
		this.text.append("| group | ").append(baseline.candidateParam()).append(" | score | B/op | speed-up | alloc ratio |")
			.append(costs ? COSTS_HEADER : "")
			.append('\n');
		this.text.append("| --- | --- | ---: | ---: | ---: | ---: |").append(costs ? COSTS_ALIGNMENT : "").append('\n');
		for (ComparisonRow row : rows) {
			BenchmarkResult result = row.result();
			String candidate = row.isBaseline(baseline) ? "**" + row.candidate() + "** (baseline)" : row.candidate();
			this.text.append("| ")
				.append(row.group())
				.append(" | ")
				.append(candidate)
				.append(" | ")
				.append(result.primary().format())
				.append(" | ")
				.append((result.allocation() != null) ? Numbers.format(result.allocation().value()) : "n/a")
				.append(" | ")
				.append((row.speedup() != null) ? row.speedup().format() : "no baseline")
				.append(" | ")
				.append((row.allocationRatio() != null) ? row.allocationRatio().format() : "n/a")
				.append(" |");
			if (costs) {
				for (String metric : COSTS) {
					Measurement cost = result.costs().get(metric);
					this.text.append(' ').append((cost != null) ? figure(cost) : "n/a").append(" |");
				}
			}
			this.text.append('\n');
		}
		this.text.append('\n');
		return this;
	}

	/** A measured value and its error without the unit, e.g. {@code 0.512 ± 0.112}. */
	private static String figure(Measurement measurement) {
		return Double.isNaN(measurement.error()) ? Numbers.format(measurement.value())
				: Numbers.format(measurement.value()) + " ± " + Numbers.format(measurement.error());
	}

	MarkdownReport sections(Map<String, String> sections) {
		sections.forEach((title, body) -> this.text.append("## ").append(title).append("\n\n").append(body.strip())
			.append("\n\n"));
		return this;
	}

	@Override
	public String toString() {
		return this.text.toString();
	}

}
