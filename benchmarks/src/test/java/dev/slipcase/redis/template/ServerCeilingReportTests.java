package dev.slipcase.redis.template;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.Measurement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server-ceiling section states each end-to-end candidate's share of {@code redis-benchmark}'s
 * SET+GET pair rate for the same value size and concurrency, and nothing for other sizes.
 */
class ServerCeilingReportTests {

	private static final String SET_THEN_GET = "dev.slipcase.redis.template.TemplateBenchmark.setThenGet";

	@Test
	void eachCandidateIsSetAgainstTheCeilingOfItsSizeAndConcurrency() {
		// 40,000 SETs and GETs per second: 20,000 pairs
		List<ServerCeilingReport.Row> rows = List.of(new ServerCeilingReport.Row(1024, 8, 40_000, 40_000, "cmd"),
				new ServerCeilingReport.Row(70_000, 8, 10_000, 10_000, "cmd"));
		List<BenchmarkResult> results = List.of(
				result(8, "ORDER", "slipcase-json", 15_000, 1_000),
				result(1, "ORDER", "slipcase-json", 5_000, 100),
				result(8, "DOCUMENT", "spring-generic-json", 2_500, 500));
		String markdown = ServerCeilingReport.markdown(rows, results);
		assertThat(markdown).contains("| 1 KB | 8 | slipcase-json | 15,000 ± 1,000 | 75% ± 5 |")
			.contains("| 70 KB | 8 | spring-generic-json | 2,500 ± 500 | 50% ± 10 |")
			.doesNotContain("5,000 ± 100");
	}

	@Test
	void withoutEndToEndResultsOnlyTheCeilingIsShown() {
		String markdown = ServerCeilingReport.markdown(List.of(new ServerCeilingReport.Row(1024, 1, 100, 100, "cmd")),
				List.of());
		assertThat(markdown).contains("| 1 KB | 1 | 100 | 100 | 50 |").doesNotContain("share of ceiling");
	}

	private static BenchmarkResult result(int threads, String payload, String candidate, double score, double error) {
		return new BenchmarkResult(SET_THEN_GET, "thrpt", threads, Map.of("payload", payload, "candidate", candidate),
				new Measurement(score, error, "ops/s"), null);
	}

}
