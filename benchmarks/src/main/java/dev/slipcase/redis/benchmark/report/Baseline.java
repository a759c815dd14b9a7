package dev.slipcase.redis.benchmark.report;

/**
 * Which run of a benchmark class is the baseline the others are compared with: the value of one
 * {@code @Param} (the "candidate" parameter), such as {@code serializer=spring-generic-json}.
 *
 * @param benchmarkClass the benchmark class's simple name, e.g. {@code SerializerBenchmark}
 * @param candidateParam the parameter that names what is compared, e.g. {@code serializer}
 * @param baselineValue the value of that parameter that is the baseline
 */
public record Baseline(String benchmarkClass, String candidateParam, String baselineValue) {

	public Baseline {
		if (benchmarkClass.isBlank() || candidateParam.isBlank() || baselineValue.isBlank()) {
			throw new IllegalArgumentException("benchmarkClass, candidateParam and baselineValue must not be blank");
		}
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
