package dev.slipcase.redis.sharded;

import java.util.List;

/**
 * The lowest and highest ratio of a round, measured ÷ baseline, over rounds counted side by side:
 * how far one count of a server-time report can be trusted.
 *
 * @param lowest the lowest ratio of a round
 * @param highest the highest ratio of a round
 */
record RoundRatios(double lowest, double highest) {

	/** The ratios of {@code measured.get(i) / baseline.get(i)}, round by round. */
	static RoundRatios of(List<Double> measured, List<Double> baseline) {
		double lowest = Double.POSITIVE_INFINITY;
		double highest = 0;
		for (int round = 0; round < measured.size(); round++) {
			double ratio = measured.get(round) / baseline.get(round);
			lowest = Math.min(lowest, ratio);
			highest = Math.max(highest, ratio);
		}
		return new RoundRatios(lowest, highest);
	}

}
