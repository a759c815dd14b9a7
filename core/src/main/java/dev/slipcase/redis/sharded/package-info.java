/**
 * The hash-sharded small-value template: a plain key/value API whose values live as fields of
 * small Redis hashes ("buckets") kept in the compact listpack encoding, at a fraction of the memory
 * of one top-level key per value.
 * <p>
 * Entry points: {@link dev.slipcase.redis.sharded.ShardedTemplates} (one per Redis connection,
 * probes the server once) creates a {@link dev.slipcase.redis.sharded.ShardedTemplate} per
 * {@link dev.slipcase.redis.sharded.ShardedNamespace}; {@link dev.slipcase.redis.sharded.ShardedMigrator}
 * moves existing plain keys into a namespace.
 */
@NullMarked
package dev.slipcase.redis.sharded;

import org.jspecify.annotations.NullMarked;
