package dev.slipcase.redis.benchmark.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.benchmark.report.BenchmarkReport;
import dev.slipcase.redis.benchmark.report.Environment;
import dev.slipcase.redis.benchmark.report.JmhResults;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs every benchmark of the suite with one {@link Profile}, each beside its baseline, with
 * {@code -prof gc}, writes JMH's JSON to {@code jmh-result.json} and the report with its charts
 * next to it.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.benchmark.suite.BenchmarkSuite quick docs/benchmarks
 * </pre>
 */
public final class BenchmarkSuite {

	/** JMH's results inside the output folder. */
	public static final String RESULTS_FILE = "jmh-result.json";

	private final Profile profile;

	private final Path output;

	private final String command;

	BenchmarkSuite(Profile profile, Path output, String command) {
		this.profile = profile;
		this.output = output;
		this.command = command;
	}

	public static void main(String[] args) throws IOException, RunnerException {
		if (args.length < 1 || args.length > 2) {
			System.err.println("Usage: BenchmarkSuite quick|full [output folder, default docs/benchmarks]");
			System.exit(2);
		}
		Profile profile = Profile.named(args[0]);
		Path output = Path.of((args.length > 1) ? args[1] : "docs/benchmarks");
		String command = System.getProperty("slipcase.benchmark.command",
				"java -cp benchmarks/target/benchmarks.jar " + BenchmarkSuite.class.getName() + " " + String.join(" ", args));
		Path report = new BenchmarkSuite(profile, output, command).run();
		System.out.println("Report written to " + report);
	}

	/**
	 * Runs the suite and writes the results, the report and the charts.
	 * @return the report file
	 */
	Path run() throws IOException, RunnerException {
		Files.createDirectories(this.output);
		Path results = this.output.resolve(RESULTS_FILE);
		List<Baseline> baselines = new ArrayList<>();
		ChainedOptionsBuilder options = new OptionsBuilder().forks(this.profile.forks())
			.warmupIterations(this.profile.warmupIterations())
			.warmupTime(this.profile.warmupTime())
			.measurementIterations(this.profile.measurementIterations())
			.measurementTime(this.profile.measurementTime())
			.addProfiler(GCProfiler.class)
			.shouldFailOnError(true)
			.resultFormat(ResultFormatType.JSON)
			.result(results.toString());
		List<SuiteEntry> entries = SuiteEntries.all();
		for (SuiteEntry entry : entries) {
			options.include(entry.include());
			baselines.add(entry.baseline());
			if (this.profile.reducedParams()) {
				entry.reducedParams().forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
			}
		}
		new Runner(options.build()).run();
		BenchmarkReport report = new BenchmarkReport(JmhResults.read(results), baselines,
				Environment.current(this.command, redisVersion()));
		return report.writeTo(this.output);
	}

	private static String redisVersion() {
		try (RedisServer redis = RedisServers.start()) {
			return redis.version() + " (" + redis.description() + ")";
		}
	}

}
