package dev.slipcase.redis.benchmark.suite;

import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.report.Baseline;

/**
 * One benchmark class in the suite: what it compares against, and the smaller parameter set the
 * quick and smoke profiles run.
 *
 * @param benchmarkClass the benchmark class
 * @param baseline the candidate parameter and its baseline value
 * @param reducedParams parameter values for the quick and smoke profiles; parameters not named
 * keep all their values
 * @param threads the thread counts to run the class with, one run each
 * @param timedFully whether a quick run times this class with the full profile's forks, warm-ups
 * and iterations too: for end-to-end throughputs, whose ratios five one-second samples on shared
 * cores cannot settle
 */
record SuiteEntry(Class<?> benchmarkClass, Baseline baseline, Map<String, List<String>> reducedParams,
		List<Integer> threads, boolean timedFully) {

	SuiteEntry {
		if (!baseline.benchmarkClass().equals(benchmarkClass.getSimpleName())) {
			throw new IllegalArgumentException("Baseline of " + baseline.benchmarkClass() + " given for "
					+ benchmarkClass.getSimpleName());
		}
		reducedParams = Map.copyOf(reducedParams);
		threads = List.copyOf(threads);
	}

	/** The profile whose forks, warm-ups and iterations time this class in a run of {@code profile}. */
	Profile timing(Profile profile) {
		return (this.timedFully && profile == Profile.QUICK) ? Profile.FULL : profile;
	}

	/** The JMH include pattern that selects exactly this class's benchmarks. */
	String include() {
		return "^" + java.util.regex.Pattern.quote(this.benchmarkClass.getName()) + "\\.";
	}

}
