/**
 * Turns JMH's JSON results into the published benchmark report: Markdown tables with every
 * Slipcase figure beside its baseline as a ratio with error, the environment that produced them,
 * and SVG bar charts rendered with JFreeChart.
 */
@NullMarked
package dev.slipcase.redis.benchmark.report;

import org.jspecify.annotations.NullMarked;
