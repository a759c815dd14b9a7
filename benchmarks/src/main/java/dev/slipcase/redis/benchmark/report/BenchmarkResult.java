package dev.slipcase.redis.benchmark.report;

import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * One row of JMH's JSON output: a benchmark method run with one set of parameters.
 *
 * @param benchmark the fully qualified method, e.g. {@code dev...SerializerBenchmark.roundTrip}
 * @param mode JMH's mode: {@code avgt}, {@code thrpt}, {@code sample} or {@code ss}
 * @param threads the number of benchmark threads
 * @param params the {@code @Param} values, sorted by name
 * @param primary the primary score
 * @param allocation bytes allocated per operation ({@code gc.alloc.rate.norm}), or {@code null}
 * when the run had no {@code -prof gc}
 * @param costs what each command cost the client and the server, by the name
 * {@link dev.slipcase.redis.benchmark.ProcessCostProfiler} gives it (such as
 * {@code ·syscalls.client.writes}), empty when the run had no such profiler
 */
public record BenchmarkResult(String benchmark, String mode, int threads, Map<String, String> params,
		Measurement primary, @Nullable Measurement allocation, Map<String, Measurement> costs) {

	public BenchmarkResult {
		params = new TreeMap<>(params);
		costs = Map.copyOf(costs);
	}

	public BenchmarkResult(String benchmark, String mode, int threads, Map<String, String> params,
			Measurement primary, @Nullable Measurement allocation) {
		this(benchmark, mode, threads, params, primary, allocation, Map.of());
	}

	/** The benchmark class's simple name, e.g. {@code SerializerBenchmark}. */
	public String className() {
		String type = this.benchmark.substring(0, this.benchmark.lastIndexOf('.'));
		return type.substring(type.lastIndexOf('.') + 1);
	}

	/** The benchmark method's name, e.g. {@code roundTrip}. */
	public String method() {
		return this.benchmark.substring(this.benchmark.lastIndexOf('.') + 1);
	}

	/** Whether a higher primary score is better (throughput) rather than lower (time). */
	public boolean higherIsBetter() {
		return "thrpt".equals(this.mode);
	}

}
