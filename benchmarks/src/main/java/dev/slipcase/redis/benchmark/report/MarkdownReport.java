package dev.slipcase.redis.benchmark.report;

import java.util.List;
import java.util.Map;

/**
 * Writes the benchmark report as Markdown: the environment, then per benchmark class a table of
 * every candidate beside its baseline, with ratios and errors, and links to its charts.
 */
final class MarkdownReport {

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

	MarkdownReport comparison(Baseline baseline, List<ComparisonRow> rows, List<String> charts) {
		this.text.append("## ").append(baseline.benchmarkClass()).append("\n\n");
		this.text.append("Baseline: `")
			.append(baseline.candidateParam())
			.append('=')
			.append(baseline.baselineValue())
			.append("`. Speed-up is baseline time / candidate time (or candidate / baseline throughput): above 1 is ")
			.append("faster. Allocation ratio is candidate / baseline bytes per operation: below 1 is less garbage. ")
			.append("Errors are JMH's 99.9% confidence half-widths, propagated into the ratios.\n\n");
		for (String chart : charts) {
			String title = chart.substring(chart.lastIndexOf('/') + 1, chart.length() - ".svg".length());
			this.text.append("![").append(title).append("](").append(chart).append(")\n\n");
		}
		this.text.append("| group | ").append(baseline.candidateParam()).append(" | score | B/op | speed-up | alloc ratio |\n");
		this.text.append("| --- | --- | ---: | ---: | ---: | ---: |\n");
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
				.append(" |\n");
		}
		this.text.append('\n');
		return this;
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
