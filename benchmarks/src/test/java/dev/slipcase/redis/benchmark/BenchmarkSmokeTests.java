package dev.slipcase.redis.benchmark;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark class for one very short iteration in this JVM, so that a benchmark that
 * no longer sets up, runs or tears down fails the build: each benchmark method once with the first
 * value of every parameter, and the first method once with each other value of each parameter
 * (every method and every value, not every combination). Asserts that each run produced a
 * result, never what the result is.
 */
class BenchmarkSmokeTests {

	@Test
	void benchmarksAreGenerated() {
		assertThat(benchmarkClasses()).isNotEmpty();
	}

	@TestFactory
	Stream<DynamicTest> everyBenchmarkClassRuns() {
		return benchmarkClasses().stream()
			.map((className) -> DynamicTest.dynamicTest(className, () -> runOnce(className)));
	}

	private static void runOnce(String className) throws RunnerException {
		List<BenchmarkListEntry> methods = entries().stream()
			.filter((entry) -> entry.getUserClassQName().equals(className))
			.sorted(Comparator.comparing(BenchmarkListEntry::getUsername))
			.toList();
		for (BenchmarkListEntry method : methods) {
			run(method, firstValues(method));
		}
		BenchmarkListEntry first = methods.get(0);
		for (Map.Entry<String, String[]> param : params(first).entrySet()) {
			for (int i = 1; i < param.getValue().length; i++) {
				Map<String, String> values = firstValues(first);
				values.put(param.getKey(), param.getValue()[i]);
				run(first, values);
			}
		}
	}

	private static void run(BenchmarkListEntry method, Map<String, String> params) throws RunnerException {
		ChainedOptionsBuilder options = new OptionsBuilder().include("^" + Pattern.quote(method.getUsername()) + "$")
			.forks(0)
			.warmupIterations(0)
			.measurementIterations(1)
			.measurementTime(TimeValue.milliseconds(20))
			.threads(1)
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true);
		params.forEach(options::param);
		Collection<RunResult> results = new Runner(options.build()).run();
		assertThat(results).as("results of %s %s", method.getUsername(), params).isNotEmpty();
		assertThat(results).allSatisfy((result) -> assertThat(result.getPrimaryResult().getSampleCount())
			.as(result.getParams().getBenchmark() + " " + params)
			.isPositive());
	}

	private static Map<String, String[]> params(BenchmarkListEntry method) {
		return method.getParams().orElse(Map.of());
	}

	private static Map<String, String> firstValues(BenchmarkListEntry method) {
		Map<String, String> values = new TreeMap<>();
		params(method).forEach((name, options) -> {
			if (options.length > 0) {
				values.put(name, options[0]);
			}
		});
		return values;
	}

	private static List<String> benchmarkClasses() {
		return entries().stream().map(BenchmarkListEntry::getUserClassQName).distinct().sorted().toList();
	}

	private static Set<BenchmarkListEntry> entries() {
		return BenchmarkList.defaultList()
			.getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());
	}

}
