package dev.slipcase.redis.benchmark.report;

import java.util.Locale;

/** Formats benchmark numbers with as many digits as they deserve. */
final class Numbers {

	private Numbers() {
	}

	static String format(double value) {
		if (Double.isNaN(value)) {
			return "n/a";
		}
		double magnitude = Math.abs(value);
		if (magnitude >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		if (magnitude >= 1) {
			return String.format(Locale.ROOT, "%.2f", value);
		}
		return String.format(Locale.ROOT, "%.3g", value);
	}

}
