/**
 * Large documents streamed between Redis and HTTP through value leases, without {@code byte[]}s.
 */
@NullMarked
package dev.slipcase.redis.sample.document;

import org.jspecify.annotations.NullMarked;
