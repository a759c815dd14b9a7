package dev.slipcase.redis.benchmark.report;

import org.jspecify.annotations.Nullable;

/**
 * One candidate's result beside the baseline of its group.
 *
 * @param group what the row is compared within: method, threads and the parameters other than
 * the candidate, e.g. {@code roundTrip payload=ORDER}
 * @param candidate the candidate parameter's value, e.g. {@code slipcase-json}, with its values of
 * the baseline's fixed parameters when it has any, e.g. {@code slipcase-json (writes=coalesced)}
 * @param result the candidate's result
 * @param speedup how many times faster than the baseline (baseline time / candidate time, or
 * candidate throughput / baseline throughput), or {@code null} without a baseline in the group
 * @param allocationRatio candidate bytes per op / baseline bytes per op, or {@code null}
 */
public record ComparisonRow(String group, String candidate, BenchmarkResult result, @Nullable Ratio speedup,
		@Nullable Ratio allocationRatio) {

	/** Whether this row is the baseline itself. */
	public boolean isBaseline(Baseline baseline) {
		return baseline.isBaselineRun(this.result);
	}

}
