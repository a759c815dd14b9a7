package dev.slipcase.redis.benchmark.suite;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which profile times each suite entry. */
class SuiteEntryTests {

	@Test
	void aQuickRunTimesTheEndToEndEntryWithLongerWarmUpsAndIterationsAndTheRestAsQuick() {
		for (SuiteEntry entry : SuiteEntries.all()) {
			boolean endToEnd = entry.benchmarkClass().getSimpleName().equals("TemplateBenchmark")
					|| entry.benchmarkClass().getSimpleName().equals("ReactiveTemplateBenchmark")
					|| entry.benchmarkClass().getSimpleName().equals("NearCacheBenchmark")
					|| entry.benchmarkClass().getSimpleName().equals("ReactiveCacheBenchmark");
			assertThat(entry.timing(Profile.QUICK)).as(entry.benchmarkClass().getSimpleName())
				.isEqualTo(endToEnd ? Profile.END_TO_END : Profile.QUICK);
			assertThat(entry.timing(Profile.FULL)).isEqualTo(Profile.FULL);
			assertThat(entry.timing(Profile.SMOKE)).isEqualTo(Profile.SMOKE);
		}
	}

}
