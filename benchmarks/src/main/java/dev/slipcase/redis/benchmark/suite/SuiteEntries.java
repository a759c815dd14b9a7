package dev.slipcase.redis.benchmark.suite;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.near.NearCacheBenchmark;
import dev.slipcase.redis.near.ReactiveCacheBenchmark;
import dev.slipcase.redis.serializer.SerializerBenchmark;
import dev.slipcase.redis.serializer.compression.CompressionBenchmark;
import dev.slipcase.redis.sharded.ShardedTemplateBenchmark;
import dev.slipcase.redis.template.LeaseBenchmark;
import dev.slipcase.redis.template.MultiTenantBenchmark;
import dev.slipcase.redis.template.ReactiveTemplateBenchmark;
import dev.slipcase.redis.template.StreamingBenchmark;
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
				// every stack with and without coalescing, each beside Spring's template and raw Lettuce as
				// a user has them without Slipcase: a plain factory or client, every command on its own
				new SuiteEntry(TemplateBenchmark.class,
						List.of(new Baseline("TemplateBenchmark", "candidate", "spring-generic-json", Map.of("writes", "each")),
								new Baseline("TemplateBenchmark", "candidate", "lettuce-bytes-jackson",
										Map.of("writes", "each"))),
						Map.of("candidate", List.of("slipcase-json", "slipcase-fory", "spring-slipcase-json",
								"spring-generic-json", "lettuce-bytes-jackson")),
						List.of(1, 8, 64), true, 2,
						// the smoke run: one Slipcase stack beside both baselines (BenchmarkSmokeTests runs the others)
						Map.of("candidate", List.of("slipcase-json", "spring-generic-json", "lettuce-bytes-jackson"))),
				// 64 concurrent subscribers per invocation, no thread each: beside Spring's reactive template
				// with RedisSerializer.json() on a plain factory
				new SuiteEntry(ReactiveTemplateBenchmark.class,
						List.of(new Baseline("ReactiveTemplateBenchmark", "candidate", "spring-reactive-json")), Map.of(),
						List.of(1), true, 2),
				// a 50 MB value streamed in chunks beside one GET / SET of the same bytes
				entry(StreamingBenchmark.class, "candidate", "lettuce-single-command", Map.of()),
				entry(LeaseBenchmark.class, "reader", "lettuce-byte-array", Map.of()),
				entry(MultiTenantBenchmark.class, "candidate", "spring-one-at-a-time", Map.of()),
				// the smoke run: the baseline and the sharded store, numeric ids (BenchmarkSmokeTests runs
				// every other value)
				new SuiteEntry(ShardedTemplateBenchmark.class,
						List.of(new Baseline("ShardedTemplateBenchmark", "store", "plain")), Map.of(), List.of(1), false,
						0, Map.of("store", List.of("plain", "sharded"), "ids", List.of("numeric"))),
				// Spring's Cache through the near tier beside the plain RedisCache: a held key's get at 1
				// thread, a 90/10 get/put mix at 8, every thread through one shared connection
				new SuiteEntry(NearCacheBenchmark.class, List.of(new Baseline("NearCacheBenchmark", "tier", "redis")),
						Map.of(), List.of(1, 8), true, 0),
				// a reactive @Cacheable hit, with and without the near tier, beside the template's read of
				// the same value: one caller, each call blocked on
				new SuiteEntry(ReactiveCacheBenchmark.class,
						List.of(new Baseline("ReactiveCacheBenchmark", "candidate", "template-get")), Map.of(), List.of(1),
						true, 0));
	}

	private static SuiteEntry entry(Class<?> benchmark, String candidateParam, String baseline,
			Map<String, List<String>> reducedParams) {
		return new SuiteEntry(benchmark, List.of(new Baseline(benchmark.getSimpleName(), candidateParam, baseline)),
				reducedParams, List.of(1), false, 0);
	}

}
