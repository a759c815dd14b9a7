package dev.slipcase.redis.near;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.slipcase.redis.benchmark.report.BenchmarkResult;
import dev.slipcase.redis.benchmark.report.Measurement;
import dev.slipcase.redis.benchmark.report.Ratio;
import org.jspecify.annotations.Nullable;

/**
 * The report's section of {@link NearCacheBenchmark}, derived from JMH's results alone: for each
 * method, thread count and value, both tiers' throughput and time per call, bytes per call and the
 * near tier's speed-up; then, for each value, the figures the near tier was built to reach
 * (issue 27), each judged against its error bar.
 */
public final class NearCacheReport {

	/** The benchmark class's simple name, as results name it. */
	static final String BENCHMARK = NearCacheBenchmark.class.getSimpleName();

	/** The longest a near-tier hit may take at 1 thread, in microseconds. */
	static final double HIT_MICROS = 1;

	/** How many times the Redis-backed hit's throughput a near-tier hit must reach at 1 thread. */
	static final double HIT_SPEEDUP = 50;

	/** How many times the Redis-only mix's throughput the near tier's must reach at 8 threads. */
	static final double MIX_SPEEDUP = 5;

	/** The thread count of the mix's target. */
	static final int MIX_THREADS = 8;

	private static final String NO_VALUE = "—";

	private NearCacheReport() {
	}

	/** Whether {@code results} hold a run of {@link NearCacheBenchmark}. */
	public static boolean hasResults(List<BenchmarkResult> results) {
		return results.stream().anyMatch((result) -> BENCHMARK.equals(result.className()));
	}

	/**
	 * The section's Markdown.
	 * @throws IllegalArgumentException when a result is not a throughput in ops/s
	 */
	public static String markdown(List<BenchmarkResult> results) {
		Map<String, Pair> pairs = pairs(results);
		StringBuilder text = new StringBuilder("""
				`NearCacheBenchmark`: Spring's `Cache.get` of a held key (`getHit`), and 90% `Cache.get` / 10% \
				`Cache.put` over 1,000 hot keys (`readWriteMix`), through the near tier (`tier=near`, a \
				`NearRedisCache`) beside the plain `RedisCache` (`tier=redis`), both with Slipcase's JSON \
				serializer. The value is a record of about 900 bytes of JSON: `order` has lists and a map \
				(decoded as mutable collections), `flat-order` only scalars. Time per call is threads / \
				throughput (each thread's mean). Errors are JMH's 99.9% confidence half-widths, propagated \
				into the ratios.

				| benchmark | threads | value | near ops/s | near µs/call | Redis-only ops/s | Redis-only µs/call \
				| near B/op | Redis-only B/op | near / Redis-only |
				| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
				""");
		Set<String> values = new LinkedHashSet<>();
		for (Pair pair : pairs.values()) {
			values.add(pair.value);
			text.append("| ")
				.append(pair.method)
				.append(" | ")
				.append(pair.threads)
				.append(" | ")
				.append(pair.value)
				.append(" | ")
				.append(throughput(pair.near))
				.append(" | ")
				.append(time(pair.near))
				.append(" | ")
				.append(throughput(pair.redis))
				.append(" | ")
				.append(time(pair.redis))
				.append(" | ")
				.append(allocation(pair.near))
				.append(" | ")
				.append(allocation(pair.redis))
				.append(" | ")
				.append((pair.speedup() != null) ? pair.speedup().format() : "n/a")
				.append(" |\n");
		}
		text.append("""

				Targets of the near tier (met: the whole error bar is on the right side; within error: the \
				bar straddles the target):

				| target | value | measured | met |
				| --- | --- | --- | --- |
				""");
		for (String value : values) {
			text.append(targets(pairs.get(key("getHit", 1, value)), pairs.get(key("readWriteMix", MIX_THREADS, value)),
					value));
		}
		return text.toString();
	}

	private static String targets(@Nullable Pair hit, @Nullable Pair mix, String value) {
		StringBuilder rows = new StringBuilder();
		Measurement hitTime = (hit != null && hit.near != null) ? microsPerCall(hit.near) : null;
		rows.append(target(String.format(Locale.ROOT, "near `getHit` at 1 thread ≤ %.0f µs/call", HIT_MICROS), value,
				(hitTime != null) ? hitTime.format() : null,
				(hitTime != null) ? verdict(HIT_MICROS - hitTime.value(), hitTime.error()) : null));
		Ratio hitSpeedup = (hit != null) ? hit.speedup() : null;
		rows.append(target(String.format(Locale.ROOT, "near `getHit` at 1 thread ≥ %.0f× Redis-only ops/s", HIT_SPEEDUP),
				value, (hitSpeedup != null) ? hitSpeedup.format() : null,
				(hitSpeedup != null) ? verdict(hitSpeedup.value() - HIT_SPEEDUP, hitSpeedup.error()) : null));
		Ratio mixSpeedup = (mix != null) ? mix.speedup() : null;
		rows.append(target(String.format(Locale.ROOT, "near `readWriteMix` at %d threads ≥ %.0f× Redis-only ops/s",
				MIX_THREADS, MIX_SPEEDUP), value, (mixSpeedup != null) ? mixSpeedup.format() : null,
				(mixSpeedup != null) ? verdict(mixSpeedup.value() - MIX_SPEEDUP, mixSpeedup.error()) : null));
		return rows.toString();
	}

	/** Each method, thread count and value's near and Redis-only run, in the order JMH ran them. */
	private static Map<String, Pair> pairs(List<BenchmarkResult> results) {
		Map<String, Pair> pairs = new LinkedHashMap<>();
		for (BenchmarkResult result : results) {
			if (!BENCHMARK.equals(result.className())) {
				continue;
			}
			if (!result.higherIsBetter() || !"ops/s".equals(result.primary().unit())) {
				throw new IllegalArgumentException("Expected a throughput in ops/s for " + result.benchmark() + ", got "
						+ result.mode() + " in " + result.primary().unit());
			}
			String value = result.params().getOrDefault("value", NO_VALUE);
			Pair pair = pairs.computeIfAbsent(key(result.method(), result.threads(), value),
					(k) -> new Pair(result.method(), result.threads(), value));
			String tier = result.params().get("tier");
			if ("near".equals(tier)) {
				pair.near = result;
			}
			else if ("redis".equals(tier)) {
				pair.redis = result;
			}
		}
		return pairs;
	}

	private static String key(String method, int threads, String value) {
		return method + " " + threads + " " + value;
	}

	/** Each thread's mean time per call: threads / throughput, with the throughput's relative error. */
	static Measurement microsPerCall(BenchmarkResult result) {
		Measurement throughput = result.primary();
		double micros = result.threads() * 1e6 / throughput.value();
		return new Measurement(micros, micros * throughput.error() / throughput.value(), "µs");
	}

	/**
	 * Whether a target is met, from its margin (how far the measured value is on the right side
	 * of the target, negative when on the wrong one) and the measured value's error.
	 */
	static String verdict(double margin, double error) {
		double bar = Double.isNaN(error) ? 0 : error;
		if (margin - bar >= 0) {
			return "met";
		}
		return (margin + bar < 0) ? "not met" : "within error";
	}

	private static String target(String target, String value, @Nullable String measured, @Nullable String verdict) {
		return "| " + target + " | " + value + " | " + ((measured != null) ? measured : "not run") + " | "
				+ ((verdict != null) ? verdict : "n/a") + " |\n";
	}

	private static String throughput(@Nullable BenchmarkResult result) {
		return (result != null) ? result.primary().format() : "not run";
	}

	private static String time(@Nullable BenchmarkResult result) {
		return (result != null) ? microsPerCall(result).format() : "not run";
	}

	private static String allocation(@Nullable BenchmarkResult result) {
		return (result != null && result.allocation() != null) ? result.allocation().format() : "n/a";
	}

	/** A method, thread count and value's runs of both tiers. */
	private static final class Pair {

		final String method;

		final int threads;

		final String value;

		@Nullable BenchmarkResult near;

		@Nullable BenchmarkResult redis;

		Pair(String method, int threads, String value) {
			this.method = method;
			this.threads = threads;
			this.value = value;
		}

		/** Near throughput / Redis-only throughput, or {@code null} unless both ran. */
		@Nullable Ratio speedup() {
			return (this.near != null && this.redis != null) ? this.near.primary().over(this.redis.primary()) : null;
		}

	}

}
