/**
 * Auto-configuration of the zero-copy {@link dev.slipcase.redis.template.ValueTemplate}: a
 * {@link dev.slipcase.redis.template.ValueTemplates} factory of typed templates and, when an
 * allowlist is configured, a {@code ValueTemplate<Object>}; {@code slipcase.redis.template.*}.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.template;

import org.jspecify.annotations.NullMarked;
