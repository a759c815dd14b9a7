package dev.slipcase.redis.benchmark.suite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.benchmark.report.BenchmarkReport;
import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.JmhResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the whole suite with the smoke profile into a temporary folder and checks the report's
 * structure: JMH's JSON, the Markdown report with every suite entry beside its baseline, and
 * SVG charts. Never checks a timing.
 */
class BenchmarkSuiteSmokeTests {

	@Test
	void suiteWritesResultsReportAndCharts(@TempDir Path output) throws Exception {
		Path report = new BenchmarkSuite(Profile.SMOKE, output, "smoke test").run();

		List<BenchmarkResult> results = JmhResults.read(output.resolve(BenchmarkSuite.RESULTS_FILE));
		assertThat(results).isNotEmpty();
		assertThat(results).allSatisfy((result) -> assertThat(result.allocation()).isNotNull());

		assertThat(report).isEqualTo(output.resolve(BenchmarkReport.REPORT_FILE));
		String markdown = Files.readString(report);
		assertThat(markdown).contains("## Environment", "| Command | `smoke test` |", "| Date | `", "| JDK |", "| Redis |");
		for (SuiteEntry entry : SuiteEntries.all()) {
			for (Baseline baseline : entry.baselines()) {
				assertThat(markdown).contains("## " + baseline.benchmarkClass())
					.contains("**" + baseline.label() + "** (baseline)");
			}
		}
		assertThat(markdown).contains("## TemplateBenchmark vs spring-generic-json (writes=each)",
				"## TemplateBenchmark vs lettuce-bytes-jackson (writes=each)", "slipcase-json (writes=coalesced)",
				"| client writes/cmd | server writes/cmd |", "| 1 KB | 64 |");
		assertThat(markdown).contains("| group |", "speed-up", "alloc ratio");
		assertThat(markdown).contains("## Near cache", "| near ops/s | near µs/call | Redis-only ops/s |",
				"| getHit | 1 | order |", "| getHit | 1 | flat-order |", "| readWriteMix | 8 | order |",
				"| readWriteMix | 8 | flat-order |", "near `getHit` at 1 thread ≤ 1 µs/call | flat-order |",
				"near `readWriteMix` at 8 threads ≥ 5× Redis-only ops/s | order |");
		assertThat(RenderReport.section(markdown, "Near cache")).doesNotContain("not run");
		assertThat(markdown.indexOf("## Near cache")).isGreaterThan(markdown.indexOf("## NearCacheBenchmark"))
			.isLessThan(markdown.indexOf("## Redis memory per key"));
		assertThat(markdown).contains("## Redis memory per key: plain SET vs sharded", "plain SET B/key",
				"## Stored size per serializer", "## Server ceiling", "| 1 KB | 8 |", "| 70 KB | 1 |",
				"## Streaming memory", "| transfer | heap above idle | direct memory above idle | samples |");
		assertThat(output.resolve(BenchmarkReport.CHARTS_FOLDER).resolve(BenchmarkSuite.MEMORY_CHART)).isRegularFile();

		List<Path> charts;
		try (Stream<Path> files = Files.list(output.resolve(BenchmarkReport.CHARTS_FOLDER))) {
			charts = files.toList();
		}
		assertThat(charts).isNotEmpty();
		assertThat(charts).allSatisfy((chart) -> {
			assertThat(chart.toString()).endsWith(".svg");
			assertThat(Files.readString(chart)).contains("<svg").contains("</svg>");
			assertThat(markdown).contains("](" + BenchmarkReport.CHARTS_FOLDER + "/" + chart.getFileName() + ")");
		});
	}

}
