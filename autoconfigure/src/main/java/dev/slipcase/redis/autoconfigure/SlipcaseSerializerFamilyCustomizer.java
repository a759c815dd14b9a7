package dev.slipcase.redis.autoconfigure;

import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;

/**
 * Customizes the auto-configured {@link SlipcaseSerializerFamily} before it is built, after the
 * properties are applied: allow generic types, route types in code, change the mapper.
 * Customizers run in {@code @Order}.
 */
@FunctionalInterface
public interface SlipcaseSerializerFamilyCustomizer {

	/** Customizes {@code builder}. */
	void customize(SlipcaseSerializerFamily.Builder builder);

}
