/**
 * The Slipcase sample app.
 */
@NullMarked
package dev.slipcase.redis.sample;

import org.jspecify.annotations.NullMarked;
