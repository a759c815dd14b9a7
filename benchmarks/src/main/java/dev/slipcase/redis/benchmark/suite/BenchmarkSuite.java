package dev.slipcase.redis.benchmark.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.benchmark.ProcessCostProfiler;
import dev.slipcase.redis.benchmark.report.BarCharts;
import dev.slipcase.redis.benchmark.report.Baseline;
import dev.slipcase.redis.benchmark.report.BenchmarkReport;
import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.Environment;
import dev.slipcase.redis.benchmark.report.JmhResults;
import dev.slipcase.redis.near.NearCacheReport;
import dev.slipcase.redis.serializer.StoredSizeReport;
import dev.slipcase.redis.sharded.ShardedMemoryReport;
import dev.slipcase.redis.sharded.ShardedServerTimeReport;
import dev.slipcase.redis.template.ServerCeilingReport;
import dev.slipcase.redis.template.StreamingMemoryReport;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * Runs every benchmark of the suite with one {@link Profile}, each beside its baseline, with
 * {@code -prof gc}; measures stored sizes and Redis memory per key (plain vs sharded, a fresh
 * server per case); writes JMH's JSON to {@code jmh-result.json} and the report with its charts
 * next to it.
 * <pre>
 * benchmarks/run quick      # or: java -cp benchmarks/target/benchmarks.jar dev.slipcase.redis.benchmark.suite.BenchmarkSuite quick docs/benchmarks
 * </pre>
 */
public final class BenchmarkSuite {

	/** JMH's results of every run, one JSON array, inside the output folder. */
	public static final String RESULTS_FILE = "jmh-result.json";

	/** The chart of Redis memory per key, plain vs sharded, inside the charts folder. */
	public static final String MEMORY_CHART = "sharded-memory-per-key.svg";

	/** The report's section of Redis memory per key, measured on fresh servers. */
	static final String MEMORY_SECTION = "Redis memory per key: plain SET vs sharded";

	/** The report's section of the sharded template's server time per call. */
	static final String SERVER_TIME_SECTION = "Sharded server time per call";

	/** The report's section of stored sizes per serializer. */
	static final String STORED_SIZE_SECTION = "Stored size per serializer";

	/** The report's section of what {@code redis-benchmark} measures, and each candidate's share of it. */
	static final String SERVER_CEILING_SECTION = "Server ceiling";

	/** The report's section of the memory a 50 MB value's transfer holds. */
	static final String STREAMING_MEMORY_SECTION = "Streaming memory";

	/** The report's section of the near cache's figures against its targets, derived from JMH's results. */
	static final String NEAR_CACHE_SECTION = "Near cache";

	/** The report's sections measured outside JMH, in the report's order. */
	static final List<String> MEASURED_SECTIONS = List.of(MEMORY_SECTION, SERVER_TIME_SECTION, STORED_SIZE_SECTION,
			SERVER_CEILING_SECTION, STREAMING_MEMORY_SECTION);

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
		String command = System.getProperty("slipcase.benchmark.command", "java -cp benchmarks/target/benchmarks.jar "
				+ BenchmarkSuite.class.getName() + " " + String.join(" ", args));
		Path report = new BenchmarkSuite(profile, output, command).run();
		System.out.println("Report written to " + report);
	}

	/**
	 * Runs the suite and writes the results, the report and the charts.
	 * @return the report file
	 */
	Path run() throws IOException, RunnerException {
		Files.createDirectories(this.output);
		Path runs = Files.createTempDirectory("slipcase-jmh-");
		List<Path> resultFiles = new ArrayList<>();
		for (SuiteEntry entry : SuiteEntries.all()) {
			for (int threads : entry.threads()) {
				Path results = runs.resolve(entry.benchmarkClass().getSimpleName() + "-t" + threads + ".json");
				new Runner(options(entry, threads, results).build()).run();
				resultFiles.add(results);
			}
		}
		Path results = this.output.resolve(RESULTS_FILE);
		merge(resultFiles, results);

		List<ShardedMemoryReport.Row> memory = ShardedMemoryReport.measureAll(this.profile.memoryKeys());
		Path chartsFolder = this.output.resolve(BenchmarkReport.CHARTS_FOLDER);
		BarCharts.write(chartsFolder.resolve(MEMORY_CHART), "Redis memory per key: plain SET vs sharded",
				"bytes per key (lower is less)", ShardedMemoryReport.chart(memory));
		List<BenchmarkResult> measured = JmhResults.read(results);
		BenchmarkReport report = derivedSections(
				new BenchmarkReport(measured, baselines(), Environment.current(this.command, redisVersion())), measured)
			.section(MEMORY_SECTION,
					"![memory per key](" + BenchmarkReport.CHARTS_FOLDER + "/" + MEMORY_CHART + ")\n\n"
							+ ShardedMemoryReport.markdown(memory))
			.section(SERVER_TIME_SECTION, ShardedServerTimeReport.markdown(
					ShardedServerTimeReport.measureAll(this.profile.serverTimeKeys(), this.profile.serverTimeCalls())))
			.section(STORED_SIZE_SECTION, StoredSizeReport.markdown())
			.section(SERVER_CEILING_SECTION, ServerCeilingReport.markdown(ServerCeilingReport.measure(this.profile.memoryKeys()),
					measured))
			.section(STREAMING_MEMORY_SECTION, StreamingMemoryReport.markdown(StreamingMemoryReport.measure()));
		return report.writeTo(this.output);
	}

	private ChainedOptionsBuilder options(SuiteEntry entry, int threads, Path results) {
		Profile timing = entry.timing(this.profile);
		ChainedOptionsBuilder options = new OptionsBuilder().include(entry.include())
			.forks(timing.forks())
			.warmupIterations(timing.warmupIterations())
			.warmupTime(timing.warmupTime())
			.measurementIterations(timing.measurementIterations())
			.measurementTime(timing.measurementTime())
			.threads(threads)
			.addProfiler(GCProfiler.class)
			.shouldFailOnError(true)
			.resultFormat(ResultFormatType.JSON)
			.result(results.toString());
		if (entry.commandsPerOperation() > 0) {
			options.addProfiler(ProcessCostProfiler.class, "commands=" + entry.commandsPerOperation());
		}
		entry.params(this.profile).forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
		return options;
	}

	/**
	 * Adds the sections derived from JMH's results alone, which {@link RenderReport} derives again:
	 * the near cache's, when the results hold its runs. They come after the comparisons and before
	 * the sections measured outside JMH.
	 * @return {@code report}
	 */
	static BenchmarkReport derivedSections(BenchmarkReport report, List<BenchmarkResult> results) {
		if (NearCacheReport.hasResults(results)) {
			report.section(NEAR_CACHE_SECTION, NearCacheReport.markdown(results));
		}
		return report;
	}

	/** Every baseline of the suite, in the report's order. */
	static List<Baseline> baselines() {
		return SuiteEntries.all().stream().flatMap((entry) -> entry.baselines().stream()).toList();
	}

	/** Concatenates the JSON arrays JMH wrote for each run into one. */
	private static void merge(List<Path> files, Path target) throws IOException {
		JsonMapper mapper = JsonMapper.builder().build();
		ArrayNode all = mapper.createArrayNode();
		for (Path file : files) {
			mapper.readTree(Files.readString(file)).forEach(all::add);
		}
		Files.writeString(target, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(all),
				StandardCharsets.UTF_8);
	}

	private static String redisVersion() {
		try (RedisServer redis = RedisServers.start()) {
			return redis.version() + " (" + redis.description() + ")";
		}
	}

}
