package dev.slipcase.redis.autoconfigure;

import java.time.Duration;

import dev.slipcase.redis.lettuce.WakeOnDemandEventLoopGroupProvider;
import dev.slipcase.redis.lettuce.WriteCoalescing;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.NettyCustomizer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SlipcaseWriteCoalescingConfiguration}: what it does to Boot's
 * {@code ClientResources} under each condition.
 */
class SlipcaseWriteCoalescingConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SlipcaseRedisAutoConfiguration.class));

	@Test
	void bootsClientResourcesCoalesceWritesByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasBean("slipcaseWriteCoalescingCustomizer");
			ClientResources resources = context.getBean(ClientResources.class);
			assertThat(WriteCoalescing.isConfigured(resources)).isTrue();
			assertBusyPoll(resources, Duration.ofNanos(100_000));
		});
	}

	@Test
	void theEventLoopsBusyPollIsTheProperty() {
		this.runner.withPropertyValues("slipcase.redis.write-coalescing.busy-poll=0").run((context) -> {
			ClientResources resources = context.getBean(ClientResources.class);
			assertThat(WriteCoalescing.isConfigured(resources)).isTrue();
			assertBusyPoll(resources, Duration.ZERO);
		});
		this.runner.withPropertyValues("slipcase.redis.write-coalescing.busy-poll=50us")
			.run((context) -> assertBusyPoll(context.getBean(ClientResources.class), Duration.ofNanos(50_000)));
	}

	/** The resources' loops are Slipcase's, polling for {@code busyPoll}. */
	private static void assertBusyPoll(ClientResources resources, Duration busyPoll) {
		assertThat(resources.eventLoopGroupProvider()).isInstanceOfSatisfying(WakeOnDemandEventLoopGroupProvider.class,
				(provider) -> assertThat(provider.busyPoll()).isEqualTo(busyPoll));
	}

	@Test
	void aNegativeBusyPollFailsStartUp() {
		assertBusyPollFailsStartUp("-1ms", "negative");
	}

	@Test
	void aBusyPollLongerThanAMillisecondFailsStartUp() {
		assertBusyPollFailsStartUp("2ms", "longer than 1ms");
		assertBusyPollFailsStartUp("200000d", "longer than 1ms");
	}

	private void assertBusyPollFailsStartUp(String busyPoll, String description) {
		this.runner.withPropertyValues("slipcase.redis.write-coalescing.busy-poll=" + busyPoll)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(SlipcaseConfigurationException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("slipcase.redis.write-coalescing.busy-poll");
					assertThat(ex.getDescription()).contains(description);
				}));
	}

	@Test
	void switchedOffTheResourcesAreMarkedSoThatSlipcaseLeavesThemAlone() {
		this.runner.withPropertyValues("slipcase.redis.write-coalescing.enabled=false").run((context) -> {
			ClientResources resources = context.getBean(ClientResources.class);
			assertThat(WriteCoalescing.isConfigured(resources)).isFalse();
			assertThat(WriteCoalescing.isDisabled(resources)).isTrue();
			assertThat(resources.eventLoopGroupProvider()).isNotInstanceOf(WakeOnDemandEventLoopGroupProvider.class);
		});
	}

	@Test
	void anApplicationsOwnEventLoopsAreKept() {
		EventLoopGroupProvider own = new DefaultEventLoopGroupProvider(2);
		this.runner
			.withBean("ownEventLoops", ClientResourcesBuilderCustomizer.class,
					() -> (builder) -> builder.eventLoopGroupProvider(own))
			.run((context) -> {
				ClientResources resources = context.getBean(ClientResources.class);
				assertThat(resources.eventLoopGroupProvider()).isSameAs(own);
				assertThat(WriteCoalescing.isConfigured(resources)).isTrue();
			});
	}

	@Test
	void anApplicationsOwnNettyCustomizerIsKept() {
		NettyCustomizer own = new NettyCustomizer() {
		};
		this.runner
			.withBean("ownCustomizer", ClientResourcesBuilderCustomizer.class,
					() -> (builder) -> builder.nettyCustomizer(own))
			.run((context) -> assertThat(context.getBean(ClientResources.class).nettyCustomizer()).isSameAs(own));
	}

	@Test
	void backsOffFromACustomizerOfTheSameName() {
		this.runner
			.withBean("slipcaseWriteCoalescingCustomizer", ClientResourcesBuilderCustomizer.class,
					() -> (builder) -> {
					})
			.run((context) -> assertThat(WriteCoalescing.isConfigured(context.getBean(ClientResources.class))).isFalse());
	}

	@Test
	void anApplicationsOwnClientResourcesAreLeftAsTheyAre() {
		this.runner.withBean(ClientResources.class, ClientResources::create, (definition) -> definition.setDestroyMethodName("shutdown")).run((context) -> {
			ClientResources resources = context.getBean(ClientResources.class);
			assertThat(WriteCoalescing.isConfigured(resources)).isFalse();
			assertThat(WriteCoalescing.isDisabled(resources)).isFalse();
		});
	}

	@Test
	void noCustomizerWithoutLettuce() {
		this.runner.withClassLoader(new FilteredClassLoader(ClientResources.class))
			.run((context) -> assertThat(context).doesNotHaveBean("slipcaseWriteCoalescingCustomizer"));
	}

}
