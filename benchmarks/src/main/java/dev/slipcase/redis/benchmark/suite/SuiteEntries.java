package dev.slipcase.redis.benchmark.suite;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.serializer.SerializerBenchmark;
import dev.slipcase.redis.serializer.compression.CompressionBenchmark;
import dev.slipcase.redis.sharded.ShardedTemplateBenchmark;
import dev.slipcase.redis.template.LeaseBenchmark;
import dev.slipcase.redis.template.MultiTenantBenchmark;
import dev.slipcase.redis.template.TemplateBenchmark;

/**
 * The benchmarks the suite runs, each beside its baseline: what a user would otherwise use.
 */
final class SuiteEntries {

	private SuiteEntries() {
	}

	static List<SuiteEntry> all() {
		return List.of(
				entry(SerializerBenchmark.class, "serializer", "spring-generic-json",
						Map.of("payload", List.of("ORDER", "DOCUMENT", "LIST_50"))),
				entry(CompressionBenchmark.class, "algorithm", "jdk-gzip-stream",
						Map.of("payload", List.of("SMALL", "ORDER"), "buffers", List.of("direct"))),
				entry(TemplateBenchmark.class, "candidate", "spring-generic-json",
						Map.of("candidate", List.of("slipcase-json", "slipcase-fory", "spring-slipcase-json",
								"spring-slipcase-fory", "spring-generic-json", "lettuce-bytes-jackson")),
						List.of(1, 8), true),
				entry(LeaseBenchmark.class, "reader", "lettuce-byte-array", Map.of()),
				entry(MultiTenantBenchmark.class, "candidate", "spring-one-at-a-time", Map.of()),
				entry(ShardedTemplateBenchmark.class, "store", "plain", Map.of()));
	}

	private static SuiteEntry entry(Class<?> benchmark, String candidateParam, String baseline,
			Map<String, List<String>> reducedParams) {
		return entry(benchmark, candidateParam, baseline, reducedParams, List.of(1), false);
	}

	private static SuiteEntry entry(Class<?> benchmark, String candidateParam, String baseline,
			Map<String, List<String>> reducedParams, List<Integer> threads, boolean timedFully) {
		return new SuiteEntry(benchmark, new Baseline(benchmark.getSimpleName(), candidateParam, baseline),
				reducedParams, threads, timedFully);
	}

}
