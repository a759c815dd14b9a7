package dev.slipcase.redis.autoconfigure.sharded;

import dev.slipcase.redis.sharded.ShardedNamespace;

/**
 * Customizes the {@link ShardedNamespace.Builder} of each namespace declared under
 * {@code slipcase.redis.sharded.namespaces}, after its properties are applied and before it is
 * built. Customizers run in {@code @Order}/{@code Ordered} order; namespaces built in code with
 * the {@code ShardedTemplates} bean are not customized.
 */
@FunctionalInterface
public interface ShardedNamespaceCustomizer {

	/**
	 * Customizes one namespace.
	 * @param name the namespace's name (its key under {@code slipcase.redis.sharded.namespaces})
	 * @param builder the namespace's builder, never {@code null}
	 */
	void customize(String name, ShardedNamespace.Builder builder);

}
