package dev.slipcase.redis.benchmark.report;

/**
 * A ratio of two measurements and its propagated error.
 *
 * @param value the ratio
 * @param error the propagated error, or {@code NaN} when either side had none
 */
public record Ratio(double value, double error) {

	/** A baseline compared with itself. */
	public static final Ratio ONE = new Ratio(1, 0);

	/** The ratio's reciprocal, with the same relative error. */
	public Ratio inverse() {
		return new Ratio(1 / this.value, this.error / (this.value * this.value));
	}

	/** The ratio as text, e.g. {@code 1.42× ± 0.05}. */
	public String format() {
		String error = (Double.isNaN(this.error) || this.error == 0) ? ""
				: " ± " + String.format(java.util.Locale.ROOT, "%.2f", this.error);
		return String.format(java.util.Locale.ROOT, "%.2f×", this.value) + error;
	}

}
