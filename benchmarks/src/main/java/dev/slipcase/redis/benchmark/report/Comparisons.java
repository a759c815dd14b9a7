package dev.slipcase.redis.benchmark.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Groups the results of one benchmark class by everything but the candidate parameter and puts
 * each candidate beside the group's baseline.
 */
public final class Comparisons {

	private Comparisons() {
	}

	/**
	 * The rows of one benchmark class, in the order JMH ran them, each with its ratios to the
	 * baseline of its group (none when the group has no baseline run).
	 */
	public static List<ComparisonRow> of(List<BenchmarkResult> results, Baseline baseline) {
		Map<String, List<BenchmarkResult>> groups = results.stream()
			.filter((result) -> result.className().equals(baseline.benchmarkClass()))
			.filter((result) -> result.params().containsKey(baseline.candidateParam()))
			.collect(Collectors.groupingBy((result) -> group(result, baseline), LinkedHashMap::new, Collectors.toList()));
		List<ComparisonRow> rows = new ArrayList<>();
		groups.forEach((group, members) -> {
			Optional<BenchmarkResult> reference = members.stream().filter(baseline::isBaselineRun).findFirst();
			for (BenchmarkResult result : members) {
				boolean isReference = reference.isPresent() && reference.get() == result;
				// the baseline's ratio to itself is exactly 1: its own error would only be noise
				rows.add(new ComparisonRow(group, candidate(result, baseline), result,
						isReference ? Ratio.ONE : reference.map((base) -> speedup(result, base)).orElse(null),
						(isReference && result.allocation() != null) ? Ratio.ONE
								: reference.map((base) -> allocationRatio(result, base)).orElse(null)));
			}
		});
		return rows;
	}

	/**
	 * What a row is called: its candidate, with its values of the baseline's fixed parameters when
	 * there are any, e.g. {@code slipcase-json (writes=coalesced)}.
	 */
	static String candidate(BenchmarkResult result, Baseline baseline) {
		Map<String, String> fixed = new TreeMap<>();
		baseline.fixedParams().keySet().forEach((name) -> fixed.put(name, result.params().get(name)));
		return Baseline.label(result.params().get(baseline.candidateParam()), fixed);
	}

	/**
	 * The group a result is compared within: method, threads and the parameters other than the
	 * candidate and the baseline's fixed ones.
	 */
	static String group(BenchmarkResult result, Baseline baseline) {
		StringBuilder group = new StringBuilder(result.method());
		if (result.threads() > 1) {
			group.append(" threads=").append(result.threads());
		}
		result.params().forEach((name, value) -> {
			if (!name.equals(baseline.candidateParam()) && !baseline.fixedParams().containsKey(name)) {
				group.append(' ').append(name).append('=').append(value);
			}
		});
		return group.toString();
	}

	private static Ratio speedup(BenchmarkResult result, BenchmarkResult base) {
		Ratio ratio = result.primary().over(base.primary());
		return result.higherIsBetter() ? ratio : ratio.inverse();
	}

	private static Ratio allocationRatio(BenchmarkResult result, BenchmarkResult base) {
		if (result.allocation() == null || base.allocation() == null) {
			return null;
		}
		return result.allocation().over(base.allocation());
	}

}
