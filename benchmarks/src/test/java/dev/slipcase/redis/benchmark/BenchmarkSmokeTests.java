package dev.slipcase.redis.benchmark;

import java.util.Collection;
import java.util.List;
import java.util.Set;
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
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark class for one very short iteration in this JVM, so that a benchmark that
 * no longer sets up, runs or tears down fails the build. Asserts that each benchmark produced a
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
		Options options = new OptionsBuilder().include("^" + Pattern.quote(className) + "\\.")
			.forks(0)
			.warmupIterations(0)
			.measurementIterations(1)
			.measurementTime(TimeValue.milliseconds(20))
			.threads(1)
			.verbosity(VerboseMode.SILENT)
			.shouldFailOnError(true)
			.build();
		Collection<RunResult> results = new Runner(options).run();
		assertThat(results).as("results of %s", className).isNotEmpty();
		assertThat(results).allSatisfy((result) -> assertThat(result.getPrimaryResult().getSampleCount())
			.as(result.getParams().getBenchmark())
			.isPositive());
	}

	private static List<String> benchmarkClasses() {
		Set<BenchmarkListEntry> entries = BenchmarkList.defaultList()
			.getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());
		return entries.stream().map(BenchmarkListEntry::getUserClassQName).distinct().sorted().toList();
	}

}
