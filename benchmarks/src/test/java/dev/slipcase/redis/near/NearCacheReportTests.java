package dev.slipcase.redis.near;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.Measurement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The near cache's section: both tiers side by side per method and thread count, time per call
 * derived from throughput, and each target judged against its error bar.
 */
class NearCacheReportTests {

	private static final String CLASS = "dev.slipcase.redis.near.NearCacheBenchmark.";

	@Test
	void eachMethodAndThreadCountHasBothTiersAndTheNearTiersSpeedup() {
		String markdown = NearCacheReport.markdown(List.of(result("getHit", 1, "near", 5_000_000, 100_000),
				result("getHit", 1, "redis", 20_000, 1_000), result("readWriteMix", 8, "near", 40_000, 2_000),
				result("readWriteMix", 8, "redis", 10_000, 1_000)));
		assertThat(markdown).contains("| getHit | 1 | order | 5,000,000 ± 100,000 ops/s | 0.200 ± 0.00400 µs | "
				+ "20,000 ± 1,000 ops/s | 50.00 ± 2.50 µs | 120 ± 0.500 B/op | 120 ± 0.500 B/op | 250.00× ± 13.46 |")
			.contains("| readWriteMix | 8 | order | 40,000 ± 2,000 ops/s | 200 ± 10.00 µs | 10,000 ± 1,000 ops/s | 800 ± 80.00 µs |");
	}

	@Test
	void targetsAreMetNotMetOrWithinErrorByTheirErrorBars() {
		String markdown = NearCacheReport.markdown(List.of(result("getHit", 1, "near", 5_000_000, 100_000),
				result("getHit", 1, "redis", 20_000, 1_000), result("readWriteMix", 8, "near", 40_000, 2_000),
				result("readWriteMix", 8, "redis", 10_000, 1_000)));
		assertThat(markdown).contains("| near `getHit` at 1 thread ≤ 1 µs/call | order | 0.200 ± 0.00400 µs | met |")
			.contains("| near `getHit` at 1 thread ≥ 50× Redis-only ops/s | order | 250.00× ± 13.46 | met |")
			.contains("| near `readWriteMix` at 8 threads ≥ 5× Redis-only ops/s | order | 4.00× ± 0.45 | not met |");
		String close = NearCacheReport.markdown(List.of(result("readWriteMix", 8, "near", 45_000, 5_000),
				result("readWriteMix", 8, "redis", 10_000, 1_000)));
		assertThat(close)
			.contains("| near `readWriteMix` at 8 threads ≥ 5× Redis-only ops/s | order | 4.50× ± 0.67 | within error |");
	}

	@Test
	void aTargetWhoseRunsAreMissingIsNotRun() {
		String markdown = NearCacheReport.markdown(List.of(result("readWriteMix", 1, "near", 40_000, 2_000)));
		assertThat(markdown).contains("| readWriteMix | 1 | order | 40,000 ± 2,000 ops/s | 25.00 ± 1.25 µs | not run | not run |")
			.contains("| near `getHit` at 1 thread ≤ 1 µs/call | order | not run | n/a |")
			.contains("| near `readWriteMix` at 8 threads ≥ 5× Redis-only ops/s | order | not run | n/a |");
	}

	@Test
	void eachValueIsComparedWithinItselfAndHasItsOwnTargets() {
		// one iteration each: JMH gives no error
		double none = Double.NaN;
		String markdown = NearCacheReport.markdown(List.of(result("getHit", 1, "near", 5_000_000, none, "flat-order"),
				result("getHit", 1, "near", 100_000, none, "order"), result("getHit", 1, "redis", 20_000, none, "flat-order"),
				result("getHit", 1, "redis", 10_000, none, "order")));
		assertThat(markdown).contains("| getHit | 1 | flat-order | 5,000,000 ops/s | 0.200 µs | 20,000 ops/s |")
			.contains("| getHit | 1 | order | 100,000 ops/s | 10.00 µs | 10,000 ops/s |")
			.contains("| near `getHit` at 1 thread ≤ 1 µs/call | flat-order | 0.200 µs | met |")
			.contains("| near `getHit` at 1 thread ≥ 50× Redis-only ops/s | flat-order | 250.00× | met |")
			.contains("| near `getHit` at 1 thread ≤ 1 µs/call | order | 10.00 µs | not met |")
			.contains("| near `getHit` at 1 thread ≥ 50× Redis-only ops/s | order | 10.00× | not met |");
		assertThat(markdown.indexOf("| flat-order | 0.200 µs | met |"))
			.isLessThan(markdown.indexOf("| order | 10.00 µs | not met |"));
	}

	@Test
	void timePerCallIsThreadsOverThroughput() {
		Measurement time = NearCacheReport.microsPerCall(result("readWriteMix", 8, "near", 40_000, 4_000));
		assertThat(time.value()).isCloseTo(200, within(1e-9));
		assertThat(time.error()).isCloseTo(20, within(1e-9));
		assertThat(time.unit()).isEqualTo("µs");
	}

	@Test
	void withoutAnErrorAValueIsJudgedAsItIs() {
		assertThat(NearCacheReport.verdict(0.5, Double.NaN)).isEqualTo("met");
		assertThat(NearCacheReport.verdict(-0.5, Double.NaN)).isEqualTo("not met");
		assertThat(NearCacheReport.verdict(0.05, 0.1)).isEqualTo("within error");
	}

	@Test
	void onlyNearCacheResultsCount() {
		BenchmarkResult other = new BenchmarkResult("dev.slipcase.redis.template.TemplateBenchmark.setThenGet", "thrpt",
				1, Map.of("candidate", "slipcase-json"), new Measurement(1, 0, "ops/s"), null);
		assertThat(NearCacheReport.hasResults(List.of(other))).isFalse();
		assertThat(NearCacheReport.hasResults(List.of(other, result("getHit", 1, "near", 1, 0)))).isTrue();
	}

	@Test
	void aResultThatIsNotAThroughputIsRefused() {
		BenchmarkResult averageTime = new BenchmarkResult(CLASS + "getHit", "avgt", 1, Map.of("tier", "near"),
				new Measurement(0.2, 0.01, "us/op"), null);
		assertThatIllegalArgumentException().isThrownBy(() -> NearCacheReport.markdown(List.of(averageTime)))
			.withMessageContaining("ops/s");
	}

	private static BenchmarkResult result(String method, int threads, String tier, double opsPerSecond, double error) {
		return result(method, threads, tier, opsPerSecond, error, "order");
	}

	private static BenchmarkResult result(String method, int threads, String tier, double opsPerSecond, double error,
			String value) {
		return new BenchmarkResult(CLASS + method, "thrpt", threads, Map.of("tier", tier, "value", value),
				new Measurement(opsPerSecond, error, "ops/s"), new Measurement(120, 0.5, "B/op"));
	}

}
