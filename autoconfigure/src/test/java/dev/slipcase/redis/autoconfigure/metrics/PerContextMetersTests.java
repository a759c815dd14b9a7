package dev.slipcase.redis.autoconfigure.metrics;

import dev.slipcase.redis.autoconfigure.SlipcaseRedisAutoConfiguration;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application contexts in one JVM: each context's meters count the values its own serializers
 * write and read, not the other's.
 */
class PerContextMetersTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SlipcaseRedisAutoConfiguration.class,
				SlipcaseMetricsAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new);

	@Test
	void eachContextsMetersCountOnlyItsOwnValues() {
		this.runner.run((first) -> this.runner.run((second) -> {
			byte[] bytes = family(first).valueSerializer().serialize("first's value");
			family(first).valueSerializer().deserialize(bytes);
			family(second).valueSerializer().serialize("second's value");
			assertThat(written(first)).isEqualTo(1);
			assertThat(read(first)).isEqualTo(1);
			assertThat(written(second)).isEqualTo(1);
			assertThat(read(second)).isZero();
		}));
	}

	@Test
	void theFamilyReportsToTheContextsMetersDirectly() {
		this.runner.run((context) -> assertThat(family(context).observer())
			.isSameAs(context.getBean(SlipcaseMeters.class)));
	}

	private static SlipcaseSerializerFamily family(ApplicationContext context) {
		return context.getBean(SlipcaseSerializerFamily.class);
	}

	private static long written(ApplicationContext context) {
		return count(context, "write");
	}

	private static long read(ApplicationContext context) {
		return count(context, "read");
	}

	private static long count(ApplicationContext context, String direction) {
		DistributionSummary summary = context.getBean(MeterRegistry.class)
			.find(SlipcaseMeters.SERIALIZER_BYTES)
			.tags("direction", direction)
			.summary();
		return (summary != null) ? summary.count() : 0;
	}

}
