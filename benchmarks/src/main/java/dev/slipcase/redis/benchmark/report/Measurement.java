package dev.slipcase.redis.benchmark.report;

/**
 * A measured value with its error (half-width of JMH's 99.9% confidence interval, or
 * {@code NaN} when too few samples were taken to compute one) and unit.
 *
 * @param value the score
 * @param error the error, or {@code NaN}
 * @param unit the unit, such as {@code ns/op}, {@code ops/s} or {@code B/op}
 */
public record Measurement(double value, double error, String unit) {

	/**
	 * {@code this / other}, with the error propagated from both relative errors (a NaN error
	 * stays NaN).
	 */
	public Ratio over(Measurement other) {
		double ratio = this.value / other.value;
		double relative = Math.sqrt(square(this.error / this.value) + square(other.error / other.value));
		return new Ratio(ratio, ratio * relative);
	}

	private static double square(double x) {
		return x * x;
	}

	/** The value and error as text, e.g. {@code 1,234.5 ± 12.3 ns/op}. */
	public String format() {
		String error = Double.isNaN(this.error) ? "" : " ± " + Numbers.format(this.error);
		return Numbers.format(this.value) + error + " " + this.unit;
	}

}
