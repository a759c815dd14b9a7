/**
 * Auto-configuration of the hash-sharded small-value template: a
 * {@link dev.slipcase.redis.sharded.ShardedTemplates} factory for namespaces made in code and one
 * {@link dev.slipcase.redis.sharded.ShardedTemplate} bean per namespace declared under
 * {@code slipcase.redis.sharded.namespaces}.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.sharded;

import org.jspecify.annotations.NullMarked;
