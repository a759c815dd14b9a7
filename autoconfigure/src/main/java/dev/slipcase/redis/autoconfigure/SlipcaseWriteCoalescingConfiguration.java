package dev.slipcase.redis.autoconfigure;

import java.time.Duration;

import dev.slipcase.redis.lettuce.WakeOnDemandNioIoHandler;
import dev.slipcase.redis.lettuce.WriteCoalescing;
import io.lettuce.core.resource.ClientResources;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Write coalescing on Boot's Lettuce {@code ClientResources}, so that every connection of Boot's
 * connection factory (its {@code RedisTemplate}, caches and sessions) and of Slipcase's templates
 * on it sends the commands of concurrent callers in one socket write; with
 * {@code slipcase.redis.write-coalescing.enabled=false} the resources are marked so that Slipcase's
 * templates leave them as they are too. Coalescing also puts the resources' NIO connections on
 * Slipcase's event loops, which wake their selector only when they are about to block in it
 * and poll for up to {@code slipcase.redis.write-coalescing.busy-poll} before they block
 * ({@link dev.slipcase.redis.lettuce.WakeOnDemandEventLoopGroupProvider}). The customizer runs
 * before the application's own, so that one that sets a {@code NettyCustomizer} or event loops of
 * its own keeps them (and may wrap its customizer with {@link WriteCoalescing#nettyCustomizer}).
 * Imported by {@link SlipcaseRedisAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ ClientResources.class, ClientResourcesBuilderCustomizer.class })
final class SlipcaseWriteCoalescingConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "slipcaseWriteCoalescingCustomizer")
	ClientResourcesBuilderCustomizer slipcaseWriteCoalescingCustomizer(SlipcaseRedisProperties properties) {
		SlipcaseRedisProperties.WriteCoalescing coalescing = properties.getWriteCoalescing();
		Duration busyPoll = coalescing.getBusyPoll();
		try {
			WakeOnDemandNioIoHandler.checkBusyPoll(busyPoll);
		}
		catch (IllegalArgumentException ex) {
			// the message says what is wrong; the exception itself adds nothing to the report
			throw new SlipcaseConfigurationException("slipcase.redis.write-coalescing.busy-poll", ex.getMessage(),
					"Set it to 0 for event loops that block at once, or to how long they poll first, at most 1ms, such as 100us",
					null);
		}
		return new WriteCoalescingCustomizer(coalescing.isEnabled(), busyPoll);
	}

	/** Sets or disables coalescing on the builder, first among the customizers. */
	record WriteCoalescingCustomizer(boolean enabled, Duration busyPoll) implements ClientResourcesBuilderCustomizer, Ordered {

		@Override
		public void customize(ClientResources.Builder builder) {
			if (this.enabled) {
				WriteCoalescing.configure(builder, this.busyPoll);
			}
			else {
				WriteCoalescing.disable(builder);
			}
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

}
