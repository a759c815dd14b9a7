package dev.slipcase.redis.benchmark.suite;

import java.util.Locale;

import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How long the suite measures: a first look, error bars to trust, or a smoke run that only proves
 * everything still runs.
 */
public enum Profile {

	/** One very short iteration in this JVM: proves the suite and the report still work, measures nothing. */
	SMOKE(0, 0, TimeValue.milliseconds(20), 1, TimeValue.milliseconds(20), true, 1_000, 1_000, 100),

	/**
	 * A first look, about an hour on two cores: one fork, five short iterations after two
	 * warm-ups of two seconds, fewer parameters; an {@linkplain SuiteEntry#endToEnd() end-to-end}
	 * entry is timed as {@link #END_TO_END}.
	 */
	QUICK(1, 2, TimeValue.seconds(2), 5, TimeValue.seconds(1), true, 100_000, 1_000_000, 10_000),

	/**
	 * How a quick run times calls through one shared connection: one fork, five warm-ups and five
	 * iterations of two seconds each (eight threads through one connection are still warming up
	 * after two warm-ups of one second, and one-second samples of them scatter widely).
	 */
	END_TO_END(1, 5, TimeValue.seconds(2), 5, TimeValue.seconds(2), true, 100_000, 1_000_000, 10_000),

	/** Error bars you can trust: two forks, longer warm-up and more iterations, every parameter. */
	FULL(2, 3, TimeValue.seconds(2), 5, TimeValue.seconds(2), false, 1_000_000, 1_000_000, 10_000);

	private final int forks;

	private final int warmupIterations;

	private final TimeValue warmupTime;

	private final int measurementIterations;

	private final TimeValue measurementTime;

	private final boolean reducedParams;

	private final int memoryKeys;

	private final int serverTimeKeys;

	private final int serverTimeCalls;

	Profile(int forks, int warmupIterations, TimeValue warmupTime, int measurementIterations,
			TimeValue measurementTime, boolean reducedParams, int memoryKeys, int serverTimeKeys,
			int serverTimeCalls) {
		this.forks = forks;
		this.warmupIterations = warmupIterations;
		this.warmupTime = warmupTime;
		this.measurementIterations = measurementIterations;
		this.measurementTime = measurementTime;
		this.reducedParams = reducedParams;
		this.memoryKeys = memoryKeys;
		this.serverTimeKeys = serverTimeKeys;
		this.serverTimeCalls = serverTimeCalls;
	}

	int forks() {
		return this.forks;
	}

	int warmupIterations() {
		return this.warmupIterations;
	}

	TimeValue warmupTime() {
		return this.warmupTime;
	}

	int measurementIterations() {
		return this.measurementIterations;
	}

	TimeValue measurementTime() {
		return this.measurementTime;
	}

	/** Whether each benchmark runs only its reduced parameter set. */
	boolean reducedParams() {
		return this.reducedParams;
	}

	/** How many keys of each kind the memory comparison stores. */
	int memoryKeys() {
		return this.memoryKeys;
	}

	/** How many values of each kind a server holds for the sharded server-time section: as many as make 100 random keys fall in ~100 buckets. */
	int serverTimeKeys() {
		return this.serverTimeKeys;
	}

	/** How many calls of each kind the sharded server-time section counts, in all of its rounds. */
	int serverTimeCalls() {
		return this.serverTimeCalls;
	}

	/**
	 * The profile named {@code name}, ignoring case.
	 * @throws IllegalArgumentException for an unknown name, listing the known ones
	 */
	static Profile named(String name) {
		try {
			return valueOf(name.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Unknown profile '" + name + "': use quick, full or smoke", ex);
		}
	}

}
