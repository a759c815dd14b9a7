/**
 * The font charts are drawn with: {@link dev.slipcase.redis.charts.ChartFonts}.
 */
@NullMarked
package dev.slipcase.redis.charts;

import org.jspecify.annotations.NullMarked;
