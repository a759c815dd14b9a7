package dev.slipcase.redis.autoconfigure.template;

import dev.slipcase.redis.template.ValueTemplates;

/**
 * Customizes the {@link ValueTemplates.Builder} of the auto-configured {@link ValueTemplates}
 * (format router, allocator, database, caller-thread decoding) after the properties are applied.
 * Every template the auto-configuration makes comes from that factory. Customizers run in
 * {@code @Order}/{@code Ordered} order.
 */
@FunctionalInterface
public interface ValueTemplateCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, never {@code null}
	 */
	void customize(ValueTemplates.Builder builder);

}
