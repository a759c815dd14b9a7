package dev.slipcase.redis.benchmark.report;

import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Which run of a benchmark class is the baseline the others are compared with: the value of one
 * {@code @Param} (the "candidate" parameter), such as {@code serializer=spring-generic-json}, and
 * optionally the values of other parameters the baseline is always taken at, such as
 * {@code writes=each}: the stack a user has without Slipcase, compared with every candidate
 * whatever those parameters are for the candidate.
 *
 * @param benchmarkClass the benchmark class's simple name, e.g. {@code SerializerBenchmark}
 * @param candidateParam the parameter that names what is compared, e.g. {@code serializer}
 * @param baselineValue the value of that parameter that is the baseline
 * @param fixedParams parameters the baseline run must have and that do not split the
 * comparison into groups (a candidate's value of them is part of its label instead), empty for
 * none
 */
public record Baseline(String benchmarkClass, String candidateParam, String baselineValue,
		Map<String, String> fixedParams) {

	public Baseline {
		if (benchmarkClass.isBlank() || candidateParam.isBlank() || baselineValue.isBlank()) {
			throw new IllegalArgumentException("benchmarkClass, candidateParam and baselineValue must not be blank");
		}
		if (fixedParams.containsKey(candidateParam)) {
			throw new IllegalArgumentException("The candidate parameter '" + candidateParam + "' cannot be fixed");
		}
		fixedParams = Map.copyOf(new TreeMap<>(fixedParams));
	}

	public Baseline(String benchmarkClass, String candidateParam, String baselineValue) {
		this(benchmarkClass, candidateParam, baselineValue, Map.of());
	}

	/** Whether {@code result} is this baseline's run: its class, the baseline value and every fixed parameter. */
	public boolean isBaselineRun(BenchmarkResult result) {
		return this.benchmarkClass.equals(result.className())
				&& this.baselineValue.equals(result.params().get(this.candidateParam))
				&& this.fixedParams.entrySet()
					.stream()
					.allMatch((fixed) -> fixed.getValue().equals(result.params().get(fixed.getKey())));
	}

	/**
	 * What the report calls the baseline: its value, with the fixed parameters when there are any,
	 * e.g. {@code spring-generic-json (writes=each)}.
	 */
	public String label() {
		return label(this.baselineValue, this.fixedParams);
	}

	/** {@code value}, followed by {@code params} in parentheses when there are any. */
	static String label(String value, Map<String, String> params) {
		if (params.isEmpty()) {
			return value;
		}
		StringJoiner label = new StringJoiner(", ", value + " (", ")");
		params.forEach((name, paramValue) -> label.add(name + "=" + paramValue));
		return label.toString();
	}

	/**
	 * Parses {@code Class:param=value}, the form used on the command line.
	 * @throws IllegalArgumentException when the text is not of that form
	 */
	public static Baseline parse(String text) {
		int colon = text.indexOf(':');
		int equals = text.indexOf('=', colon + 1);
		if (colon <= 0 || equals <= colon + 1 || equals == text.length() - 1) {
			throw new IllegalArgumentException("Expected Class:param=value for a baseline, got '" + text + "'");
		}
		return new Baseline(text.substring(0, colon), text.substring(colon + 1, equals), text.substring(equals + 1));
	}

}
