package dev.slipcase.redis.benchmark.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JmhResults}.
 */
class JmhResultsTests {

	@Test
	void readsScoresParamsAndAllocation() {
		List<BenchmarkResult> results = JmhResults.parse("""
				[{"benchmark":"dev.slipcase.redis.serializer.SerializerBenchmark.roundTrip","mode":"avgt","threads":2,
				  "params":{"payload":"ORDER","serializer":"slipcase-json"},
				  "primaryMetric":{"score":1234.5,"scoreError":"NaN","scoreUnit":"ns/op"},
				  "secondaryMetrics":{"gc.alloc.rate.norm":{"score":880.0,"scoreError":1.5,"scoreUnit":"B/op"}}}]
				""");
		assertThat(results).hasSize(1);
		BenchmarkResult result = results.get(0);
		assertThat(result.className()).isEqualTo("SerializerBenchmark");
		assertThat(result.method()).isEqualTo("roundTrip");
		assertThat(result.threads()).isEqualTo(2);
		assertThat(result.params()).containsEntry("serializer", "slipcase-json").containsEntry("payload", "ORDER");
		assertThat(result.primary().value()).isEqualTo(1234.5);
		assertThat(result.primary().error()).isNaN();
		assertThat(result.allocation().value()).isEqualTo(880.0);
		assertThat(result.allocation().unit()).isEqualTo("B/op");
	}

	@Test
	void readsTheCostsPerCommandOfTheProcessCostProfilerAndNoOtherSecondaryMetric() {
		List<BenchmarkResult> results = JmhResults.parse("""
				[{"benchmark":"dev.slipcase.redis.template.TemplateBenchmark.setThenGet","mode":"thrpt","threads":8,
				  "params":{"candidate":"slipcase-json","writes":"coalesced"},
				  "primaryMetric":{"score":20000.0,"scoreError":500.0,"scoreUnit":"ops/s"},
				  "secondaryMetrics":{"·syscalls.client.writes":{"score":0.51,"scoreError":0.11,"scoreUnit":"calls/cmd"},
				    "·cpu.server":{"score":5.7,"scoreError":3.3,"scoreUnit":"us/cmd"},
				    "gc.count":{"score":12.0,"scoreError":"NaN","scoreUnit":"counts"}}}]
				""");
		BenchmarkResult result = results.get(0);
		assertThat(result.costs()).containsOnlyKeys("·syscalls.client.writes", "·cpu.server");
		assertThat(result.costs().get("·syscalls.client.writes")).isEqualTo(new Measurement(0.51, 0.11, "calls/cmd"));
		assertThat(result.allocation()).isNull();
	}

	@Test
	void refusesWhatIsNotJmhJson() {
		assertThatIllegalArgumentException().isThrownBy(() -> JmhResults.parse("{\"benchmark\":1}"))
			.withMessageContaining("JSON array");
		assertThatIllegalArgumentException().isThrownBy(() -> JmhResults.parse("[{\"mode\":\"avgt\"}]"))
			.withMessageContaining("benchmark");
	}

}
