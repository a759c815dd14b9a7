package dev.slipcase.redis.benchmark.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Comparisons}: each candidate beside the baseline of its own group.
 */
class ComparisonsTests {

	private static final Baseline BASELINE = new Baseline("SerializerBenchmark", "serializer", "stock");

	@Test
	void averageTimeSpeedupIsBaselineOverCandidate() {
		List<ComparisonRow> rows = Comparisons.of(List.of(avgt("stock", "ORDER", 300, 1000), avgt("lean", "ORDER", 200, 400)),
				BASELINE);
		ComparisonRow lean = rows.get(1);
		assertThat(lean.candidate()).isEqualTo("lean");
		assertThat(lean.speedup().value()).isCloseTo(1.5, within(1e-9));
		assertThat(lean.allocationRatio().value()).isCloseTo(0.4, within(1e-9));
		assertThat(rows.get(0).speedup()).isEqualTo(Ratio.ONE);
		assertThat(rows.get(0).speedup().format()).isEqualTo("1.00×");
	}

	@Test
	void throughputSpeedupIsCandidateOverBaseline() {
		BenchmarkResult stock = new BenchmarkResult("x.SerializerBenchmark.run", "thrpt", 1,
				Map.of("serializer", "stock"), new Measurement(1000, 10, "ops/s"), null);
		BenchmarkResult lean = new BenchmarkResult("x.SerializerBenchmark.run", "thrpt", 1,
				Map.of("serializer", "lean"), new Measurement(1500, 15, "ops/s"), null);
		ComparisonRow row = Comparisons.of(List.of(stock, lean), BASELINE).get(1);
		assertThat(row.speedup().value()).isCloseTo(1.5, within(1e-9));
		assertThat(row.speedup().error()).isCloseTo(1.5 * Math.sqrt(2 * 0.01 * 0.01), within(1e-9));
		assertThat(row.allocationRatio()).isNull();
	}

	@Test
	void candidatesAreComparedOnlyWithinTheirGroup() {
		List<ComparisonRow> rows = Comparisons.of(List.of(avgt("stock", "ORDER", 300, 1000), avgt("stock", "SMALL", 30, 100),
				avgt("lean", "SMALL", 10, 50)), BASELINE);
		ComparisonRow small = rows.stream().filter((row) -> row.candidate().equals("lean")).findFirst().orElseThrow();
		assertThat(small.group()).isEqualTo("roundTrip payload=SMALL");
		assertThat(small.speedup().value()).isCloseTo(3.0, within(1e-9));
	}

	@Test
	void groupWithoutBaselineHasNoRatio() {
		List<ComparisonRow> rows = Comparisons.of(List.of(avgt("lean", "DOCUMENT", 10, 50)), BASELINE);
		assertThat(rows.get(0).speedup()).isNull();
		assertThat(rows.get(0).allocationRatio()).isNull();
	}

	@Test
	void aFixedParameterPicksTheBaselineRunAndLabelsTheCandidatesInsteadOfSplittingGroups() {
		Baseline plainSpring = new Baseline("TemplateBenchmark", "candidate", "spring", Map.of("writes", "each"));
		List<ComparisonRow> rows = Comparisons.of(List.of(thrpt("spring", "coalesced", 1200), thrpt("spring", "each", 1000),
				thrpt("slipcase", "coalesced", 1500), thrpt("slipcase", "each", 1100)), plainSpring);
		assertThat(rows).extracting(ComparisonRow::group).containsOnly("setThenGet threads=8 payload=ORDER");
		assertThat(rows).extracting(ComparisonRow::candidate)
			.containsExactly("spring (writes=coalesced)", "spring (writes=each)", "slipcase (writes=coalesced)",
					"slipcase (writes=each)");
		assertThat(rows).extracting((row) -> row.speedup().value())
			.containsExactly(1.2, 1.0, 1.5, 1.1);
		assertThat(rows.get(1).isBaseline(plainSpring)).isTrue();
		assertThat(rows.get(0).isBaseline(plainSpring)).isFalse();
		assertThat(plainSpring.label()).isEqualTo("spring (writes=each)");
	}

	@Test
	void theCandidateParameterCannotBeFixed() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Baseline("TemplateBenchmark", "candidate", "spring", Map.of("candidate", "x")));
	}

	@Test
	void baselineIsParsedFromTheCommandLineForm() {
		assertThat(Baseline.parse("SerializerBenchmark:serializer=spring-generic-json"))
			.isEqualTo(new Baseline("SerializerBenchmark", "serializer", "spring-generic-json"));
	}

	private static BenchmarkResult thrpt(String candidate, String writes, double opsPerSecond) {
		return new BenchmarkResult("dev.slipcase.redis.template.TemplateBenchmark.setThenGet", "thrpt", 8,
				Map.of("candidate", candidate, "writes", writes, "payload", "ORDER"),
				new Measurement(opsPerSecond, Double.NaN, "ops/s"), null);
	}

	private static BenchmarkResult avgt(String serializer, String payload, double nanos, double bytes) {
		return new BenchmarkResult("dev.slipcase.redis.serializer.SerializerBenchmark.roundTrip", "avgt", 1,
				Map.of("serializer", serializer, "payload", payload), new Measurement(nanos, Double.NaN, "ns/op"),
				new Measurement(bytes, Double.NaN, "B/op"));
	}

}
