package dev.slipcase.redis.benchmark.suite;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.Baseline;

/**
 * One benchmark class in the suite: what it compares against, and the smaller parameter set the
 * quick and smoke profiles run.
 *
 * @param benchmarkClass the benchmark class
 * @param baselines what its candidates are compared with, one table each, at least one
 * @param reducedParams parameter values for the quick and smoke profiles; parameters not named
 * keep all their values
 * @param threads the thread counts to run the class with, one run each
 * @param endToEnd whether the class times calls to a server through one shared connection: a
 * quick run then warms it up and measures it as {@link Profile#END_TO_END} does, since five
 * one-second samples after two warm-ups cannot settle eight threads through one connection
 * @param commandsPerOperation the Redis commands each operation sends, for
 * {@link dev.slipcase.redis.benchmark.ProcessCostProfiler}'s costs per command; 0 to run without it
 * @param smokeParams parameter values the smoke profile narrows further, for a class whose every
 * value {@code BenchmarkSmokeTests} already runs; the report's structure needs only the baseline
 */
record SuiteEntry(Class<?> benchmarkClass, List<Baseline> baselines, Map<String, List<String>> reducedParams,
		List<Integer> threads, boolean endToEnd, int commandsPerOperation, Map<String, List<String>> smokeParams) {

	SuiteEntry {
		if (baselines.isEmpty()) {
			throw new IllegalArgumentException("No baseline given for " + benchmarkClass.getSimpleName());
		}
		for (Baseline baseline : baselines) {
			if (!baseline.benchmarkClass().equals(benchmarkClass.getSimpleName())) {
				throw new IllegalArgumentException("Baseline of " + baseline.benchmarkClass() + " given for "
						+ benchmarkClass.getSimpleName());
			}
		}
		baselines = List.copyOf(baselines);
		reducedParams = Map.copyOf(reducedParams);
		threads = List.copyOf(threads);
		smokeParams = Map.copyOf(smokeParams);
	}

	SuiteEntry(Class<?> benchmarkClass, List<Baseline> baselines, Map<String, List<String>> reducedParams,
			List<Integer> threads, boolean endToEnd, int commandsPerOperation) {
		this(benchmarkClass, baselines, reducedParams, threads, endToEnd, commandsPerOperation, Map.of());
	}

	/** The parameter values a run of {@code profile} sets: none (all of them) for a full run. */
	Map<String, List<String>> params(Profile profile) {
		if (!profile.reducedParams()) {
			return Map.of();
		}
		if (profile != Profile.SMOKE || this.smokeParams.isEmpty()) {
			return this.reducedParams;
		}
		Map<String, List<String>> params = new HashMap<>(this.reducedParams);
		params.putAll(this.smokeParams);
		return params;
	}

	/** The profile whose forks, warm-ups and iterations time this class in a run of {@code profile}. */
	Profile timing(Profile profile) {
		return (this.endToEnd && profile == Profile.QUICK) ? Profile.END_TO_END : profile;
	}

	/** The JMH include pattern that selects exactly this class's benchmarks. */
	String include() {
		return "^" + java.util.regex.Pattern.quote(this.benchmarkClass.getName()) + "\\.";
	}

}
