/**
 * What Slipcase saves, measured on the running Redis: the savings report and the plain versus
 * sharded memory comparison (endpoint and command-line mode).
 */
@NullMarked
package dev.slipcase.redis.sample.savings;

import org.jspecify.annotations.NullMarked;
