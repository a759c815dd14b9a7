package dev.slipcase.redis.benchmark.suite;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.serializer.SerializerBenchmark;

/**
 * The benchmarks the suite runs, each with its baseline: what a user would otherwise use.
 */
final class SuiteEntries {

	private SuiteEntries() {
	}

	static List<SuiteEntry> all() {
		return List.of(new SuiteEntry(SerializerBenchmark.class,
				new Baseline("SerializerBenchmark", "serializer", "spring-generic-json"),
				Map.of("payload", List.of("SMALL", "ORDER", "DOCUMENT"))));
	}

}
