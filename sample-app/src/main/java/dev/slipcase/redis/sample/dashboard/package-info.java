/**
 * The savings dashboard at {@code /}: server-rendered HTML with SVG charts.
 */
@NullMarked
package dev.slipcase.redis.sample.dashboard;

import org.jspecify.annotations.NullMarked;
