package dev.slipcase.redis.autoconfigure.metrics;

import dev.slipcase.redis.buffer.AllocatorType;
import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SlipcaseMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SlipcaseMetricsAutoConfiguration.class));

	private final ApplicationContextRunner withRegistry = this.runner.withBean(MeterRegistry.class,
			SimpleMeterRegistry::new);

	@Test
	void withoutAMeterRegistryNothingIsBound() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(SlipcaseMeters.class).doesNotHaveBean(NearCacheMeters.class);
			assertThat(SlipcaseObservers.current()).isSameAs(SlipcaseObserver.NOOP);
		});
	}

	@Test
	void withoutMicrometerOnTheClassPathNothingIsBound() {
		this.withRegistry.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(SlipcaseMeters.class)
				.doesNotHaveBean(NearCacheMeters.class));
	}

	@Test
	void disabledByProperty() {
		this.withRegistry.withPropertyValues("slipcase.redis.metrics.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(SlipcaseMeters.class)
				.doesNotHaveBean(NearCacheMeters.class));
	}

	@Test
	void nearCacheMetersAreDefinedWithARegistry() {
		this.withRegistry.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(NearCacheMeters.class));
	}

	@Test
	void withoutCaffeineOnTheClassPathThereAreNoNearCacheMeters() {
		this.withRegistry.withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SlipcaseMeters.class)
				.doesNotHaveBean(NearCacheMeters.class));
	}

	@Test
	void userDefinedNearCacheMetersWin() {
		this.withRegistry
			.withBean("mine", NearCacheMeters.class,
					() -> new NearCacheMeters(new SimpleMeterRegistry(), new DefaultListableBeanFactory()))
			.run((context) -> assertThat(context).hasSingleBean(NearCacheMeters.class).hasBean("mine"));
	}

	@Test
	void userDefinedMetersWin() {
		this.withRegistry
			.withBean("mine", SlipcaseMeters.class,
					() -> SlipcaseMeters.bind(new SimpleMeterRegistry(), java.util.Map.of()))
			.run((context) -> assertThat(context).hasSingleBean(SlipcaseMeters.class).hasBean("mine"));
	}

	@Test
	void gaugesForLeasesAndTheNettyAllocatorsAreRegistered() {
		this.withRegistry.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(SlipcaseMeters.LEASES_ACTIVE).gauge().value()).isZero();
			for (String allocator : new String[] { "default", "pooled" }) {
				for (String kind : new String[] { "heap", "direct" }) {
					assertThat(registry.get(SlipcaseMeters.BUFFER_MEMORY).tag("allocator", allocator).tag("kind", kind).gauge())
						.isNotNull();
				}
			}
		});
	}

	@Test
	void allocatorBeansAreReportedUnderTheirBeanName() {
		this.withRegistry
			.withBean("scratchAllocator", ByteBufAllocator.class, () -> BufferAllocators.allocator(AllocatorType.POOLED, false))
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get(SlipcaseMeters.BUFFER_MEMORY).tag("allocator", "scratchAllocator").gauges())
					.hasSize(2);
			});
	}

	@Test
	void anAllocatorBeanThatIsNettysDefaultIsReportedOnce() {
		this.withRegistry.withBean("sameAsDefault", ByteBufAllocator.class, BufferAllocators::defaultAllocator)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find(SlipcaseMeters.BUFFER_MEMORY).tag("allocator", "sameAsDefault").gauges()).isEmpty();
			});
	}

	@Test
	void serializerTrafficIsRecordedPerFormatAndDirection() {
		this.withRegistry.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			byte[] bytes = SlipcaseSerializers.string().serialize("twelve bytes");
			SlipcaseSerializers.string().deserialize(bytes);
			DistributionSummary written = registry.get(SlipcaseMeters.SERIALIZER_BYTES)
				.tags("format", "string", "direction", "write")
				.summary();
			assertThat(written.count()).isEqualTo(1);
			assertThat(written.totalAmount()).isEqualTo(12);
			assertThat(registry.get(SlipcaseMeters.SERIALIZER_BYTES).tags("format", "string", "direction", "read").summary()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void serializationErrorsAreCountedPerFormatAndOperation() {
		this.withRegistry.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> SlipcaseSerializers.longs().deserialize("not a number".getBytes()));
			assertThat(registry.get(SlipcaseMeters.SERIALIZER_ERRORS).tags("format", "number-long", "operation", "read").counter()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void closingTheContextStopsObserving() {
		this.withRegistry.run((context) -> assertThat(SlipcaseObservers.current())
			.isSameAs(context.getBean(SlipcaseMeters.class)));
		assertThat(SlipcaseObservers.current()).isSameAs(SlipcaseObserver.NOOP);
	}

}
