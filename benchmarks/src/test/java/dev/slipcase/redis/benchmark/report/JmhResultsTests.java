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
	void refusesWhatIsNotJmhJson() {
		assertThatIllegalArgumentException().isThrownBy(() -> JmhResults.parse("{\"benchmark\":1}"))
			.withMessageContaining("JSON array");
		assertThatIllegalArgumentException().isThrownBy(() -> JmhResults.parse("[{\"mode\":\"avgt\"}]"))
			.withMessageContaining("benchmark");
	}

}
