package dev.slipcase.redis.benchmark.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.JmhResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link RenderReport} on a copy of the published report folder: the report written again from
 * its results keeps the run's environment and the sections measured outside JMH word for word,
 * has every comparison, and rendering twice changes nothing.
 */
class RenderReportTests {

	@Test
	void theReportRenderedAgainKeepsTheRunsEnvironmentAndMeasuredSections(@TempDir Path folder) throws IOException {
		Path published = published();
		Files.copy(published.resolve(BenchmarkSuite.RESULTS_FILE), folder.resolve(BenchmarkSuite.RESULTS_FILE));
		String original = Files.readString(published.resolve("README.md"), StandardCharsets.UTF_8);
		Files.writeString(folder.resolve("README.md"), original, StandardCharsets.UTF_8);

		String rendered = Files.readString(RenderReport.render(folder), StandardCharsets.UTF_8);

		assertThat(RenderReport.environment(rendered)).isEqualTo(RenderReport.environment(original));
		for (String title : BenchmarkSuite.MEASURED_SECTIONS) {
			assertThat(RenderReport.section(rendered, title)).as(title).isEqualTo(RenderReport.section(original, title));
		}
		List<String> ownRuns = RenderReport.sectionsAfter(original, BenchmarkSuite.STREAMING_MEMORY_SECTION);
		assertThat(ownRuns).as("the published report's sections of runs of their own").isNotEmpty();
		assertThat(RenderReport.sectionsAfter(rendered, BenchmarkSuite.STREAMING_MEMORY_SECTION)).isEqualTo(ownRuns);
		for (String title : ownRuns) {
			assertThat(RenderReport.section(rendered, title)).as(title).isEqualTo(RenderReport.section(original, title));
		}
		// every baseline the results have a run of (a benchmark added since has none yet)
		List<BenchmarkResult> results = JmhResults.read(folder.resolve(BenchmarkSuite.RESULTS_FILE));
		BenchmarkSuite.baselines()
			.stream()
			.filter((baseline) -> results.stream().anyMatch(baseline::isBaselineRun))
			.forEach((baseline) -> assertThat(rendered).contains("**" + baseline.label() + "** (baseline)"));
		assertThat(Files.readString(RenderReport.render(folder), StandardCharsets.UTF_8)).isEqualTo(rendered);
	}

	@Test
	void theNearCacheSectionIsDerivedAgainFromTheResults(@TempDir Path folder) throws IOException {
		Path published = published();
		String json = Files.readString(published.resolve(BenchmarkSuite.RESULTS_FILE), StandardCharsets.UTF_8).strip();
		Files.writeString(folder.resolve(BenchmarkSuite.RESULTS_FILE), json.substring(0, json.length() - 1)
				+ ", " + nearCacheResult("near", 5_000_000, 100_000) + ", " + nearCacheResult("redis", 20_000, 1_000) + "]",
				StandardCharsets.UTF_8);
		String original = Files.readString(published.resolve("README.md"), StandardCharsets.UTF_8);
		Files.writeString(folder.resolve("README.md"), original, StandardCharsets.UTF_8);

		String rendered = Files.readString(RenderReport.render(folder), StandardCharsets.UTF_8);

		assertThat(RenderReport.section(rendered, BenchmarkSuite.NEAR_CACHE_SECTION))
			.contains("| getHit | 1 | order | 5,000,000 ± 100,000 ops/s |", "| order | 250.00× ± 13.46 | met |");
		assertThat(rendered.indexOf("## " + BenchmarkSuite.NEAR_CACHE_SECTION))
			.isLessThan(rendered.indexOf("## " + BenchmarkSuite.MEASURED_SECTIONS.get(0)));
		for (String title : BenchmarkSuite.MEASURED_SECTIONS) {
			assertThat(RenderReport.section(rendered, title)).as(title).isEqualTo(RenderReport.section(original, title));
		}
		assertThat(Files.readString(RenderReport.render(folder), StandardCharsets.UTF_8)).isEqualTo(rendered);
	}

	@Test
	void aReportWithoutAMeasuredSectionIsRefused(@TempDir Path folder) throws IOException {
		Path published = published();
		Files.copy(published.resolve(BenchmarkSuite.RESULTS_FILE), folder.resolve(BenchmarkSuite.RESULTS_FILE));
		String original = Files.readString(published.resolve("README.md"), StandardCharsets.UTF_8);
		Files.writeString(folder.resolve("README.md"), original.replace("## Server ceiling", "## Something else"),
				StandardCharsets.UTF_8);
		assertThatIllegalStateException().isThrownBy(() -> RenderReport.render(folder))
			.withMessageContaining("Server ceiling");
	}

	/** JMH's JSON of a {@code NearCacheBenchmark.getHit} run at 1 thread. */
	private static String nearCacheResult(String tier, double opsPerSecond, double error) {
		return """
				{"benchmark":"dev.slipcase.redis.near.NearCacheBenchmark.getHit","mode":"thrpt","threads":1,
				 "params":{"tier":"%s","value":"order"},
				 "primaryMetric":{"score":%s,"scoreError":%s,"scoreUnit":"ops/s"},
				 "secondaryMetrics":{"gc.alloc.rate.norm":{"score":120.0,"scoreError":0.5,"scoreUnit":"B/op"}}}
				""".formatted(tier, opsPerSecond, error);
	}

	private static Path published() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("docs/benchmarks/README.md"))) {
				return dir.resolve("docs/benchmarks");
			}
		}
		throw new IllegalStateException("No docs/benchmarks above " + Path.of("").toAbsolutePath());
	}

}
