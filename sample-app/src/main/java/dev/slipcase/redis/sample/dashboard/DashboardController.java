package dev.slipcase.redis.sample.dashboard;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.sample.savings.MemoryComparison;
import dev.slipcase.redis.sample.savings.Savings;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cache.CacheManager;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /}: a small savings dashboard, rendered on the server from the live {@code /savings}
 * figures: bytes per key plain vs Slipcase for each cache and sharded namespace as SVG bar charts,
 * the figures in tables, and a button that runs the memory comparison ({@code POST
 * /memory-comparison}) and shows its result and chart ({@code GET /charts/memory-comparison.svg})
 * without reloading. Plain HTML, one inline script, no build step.
 */
@RestController
class DashboardController {

	private final Savings savings;

	private final MemoryComparison comparison;

	private final ObjectProvider<CacheManager> cacheManager;

	DashboardController(Savings savings, MemoryComparison comparison, ObjectProvider<CacheManager> cacheManager) {
		this.savings = savings;
		this.comparison = comparison;
		this.cacheManager = cacheManager;
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
	String dashboard() {
		Savings.Report report = this.savings.report();
		Map<String, double[]> caches = new LinkedHashMap<>();
		StringBuilder cacheRows = new StringBuilder();
		report.cached().forEach((cache, value) -> {
			Long springJson = value.sameValueIn().get("spring-generic-json");
			double plain = (springJson != null) ? springJson : 0;
			caches.put(cache, new double[] { plain, value.storedBytes() });
			cacheRows.append(row(cache, value.storedAs(), format(plain), format(value.storedBytes()),
					format(value.springJsonToStored()) + "×"));
		});
		Map<String, double[]> namespaces = new LinkedHashMap<>();
		StringBuilder namespaceRows = new StringBuilder();
		report.sharded().forEach((namespace, cost) -> {
			namespaces.put(namespace, new double[] { cost.plainBytesPerKey(), cost.shardedBytesPerKey() });
			namespaceRows.append(row(namespace, cost.keys() + " keys in " + cost.buckets() + " buckets",
					format(cost.plainBytesPerKey()), format(cost.shardedBytesPerKey()),
					format(cost.plainToSharded()) + "×"));
		});
		return PAGE.replace("{{cacheChart}}", SavingsCharts.barChart("cache-chart", "Cached values: bytes per entry", caches, 560, 340))
			.replace("{{cacheRows}}", cacheRows)
			.replace("{{namespaceChart}}",
					SavingsCharts.barChart("namespace-chart", "Sharded namespaces: bytes per key", namespaces, 560, 340))
			.replace("{{namespaceRows}}", namespaceRows)
			.replace("{{comparisonChart}}", comparisonChart(this.comparison.lastResult()))
			.replace("{{nearRows}}", nearRows());
	}

	/** A row per cache with a near tier: what it holds and how its reads went since start. */
	private String nearRows() {
		StringBuilder rows = new StringBuilder();
		if (this.cacheManager.getIfUnique() instanceof NearCacheManager near) {
			near.nearTiers().forEach((cache, tier) -> {
				long reads = tier.hits() + tier.misses() + tier.bypassed();
				String hitRate = (reads > 0) ? format(100.0 * tier.hits() / reads) + " %" : "–";
				rows.append("<tr><th>")
					.append(HtmlUtils.htmlEscape(cache))
					.append("</th><td class=\"text\">")
					.append(tier.isTrusted() ? "tracking" : "bypassed")
					.append("</td><td>")
					.append(String.format(Locale.ROOT, "%,d", tier.size()))
					.append("</td><td>")
					.append(String.format(Locale.ROOT, "%,d / %,d / %,d", tier.hits(), tier.misses(), tier.bypassed()))
					.append("</td><td>")
					.append(String.format(Locale.ROOT, "%,d", tier.invalidations()))
					.append("</td><td class=\"ratio\">")
					.append(hitRate)
					.append("</td></tr>\n");
			});
		}
		return rows.toString();
	}

	@GetMapping(path = "/charts/memory-comparison.svg", produces = "image/svg+xml")
	String memoryComparisonChart() {
		return "<?xml version=\"1.0\"?>\n" + comparisonChart(this.comparison.lastResult());
	}

	private static String comparisonChart(MemoryComparison.@Nullable Result result) {
		Map<String, double[]> bars = new LinkedHashMap<>();
		if (result != null) {
			bars.put(String.format(Locale.ROOT, "%,d counters", result.keys()),
					new double[] { result.plain().bytesPerKey(), result.sharded().bytesPerKey() });
		}
		return SavingsCharts.barChart("comparison-chart", "Memory comparison: bytes per key", bars, 560, 300);
	}

	private static String row(String name, String what, String plain, String slipcase, String ratio) {
		return "<tr><th>" + HtmlUtils.htmlEscape(name) + "</th><td class=\"text\">" + HtmlUtils.htmlEscape(what) + "</td><td>"
				+ plain + "</td><td>" + slipcase + "</td><td class=\"ratio\">" + ratio + "</td></tr>\n";
	}

	private static String format(double value) {
		return (value == Math.rint(value) && Math.abs(value) >= 100) ? String.format(Locale.ROOT, "%,.0f", value)
				: String.format(Locale.ROOT, "%,.2f", value);
	}

	private static final String PAGE = """
			<!DOCTYPE html>
			<html lang="en">
			<head>
			<meta charset="utf-8">
			<title>Slipcase savings</title>
			<link rel="icon" href="data:,">
			<style>
			  body { font-family: sans-serif; margin: 1.5em 2em; color: #1f2933; }
			  h1 { margin-bottom: 0.2em; }
			  h2 { margin: 0.6em 0 0.3em; }
			  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(580px, 1fr)); gap: 1em 2em; }
			  table { border-collapse: collapse; margin-top: 0.5em; font-size: 0.9em; }
			  th, td { padding: 0.25em 0.75em; text-align: right; border-bottom: 1px solid #e4e7eb; }
			  th:first-child, td.text, th.text { text-align: left; }
			  .ratio { font-weight: bold; color: #2b7a4b; }
			  button { font-size: 1em; padding: 0.4em 1em; }
			  #comparison-status { margin-left: 1em; color: #52606d; }
			</style>
			</head>
			<body>
			<h1>Slipcase savings</h1>
			<p>Measured now on this app's Redis (<a href="/savings">/savings</a>): plain is what the same
			value or key costs without Slipcase.</p>
			<main>
			<section id="caches">
			<h2>Caches</h2>
			{{cacheChart}}
			<table>
			<thead><tr><th>cache</th><th class="text">stored as</th><th>generic JSON, B</th><th>Slipcase, B</th><th>smaller</th></tr></thead>
			<tbody>
			{{cacheRows}}</tbody>
			</table>
			</section>
			<section id="namespaces">
			<h2>Sharded namespaces</h2>
			{{namespaceChart}}
			<table>
			<thead><tr><th>namespace</th><th class="text">sampled</th><th>plain, B/key</th><th>sharded, B/key</th><th>smaller</th></tr></thead>
			<tbody>
			{{namespaceRows}}</tbody>
			</table>
			</section>
			<section id="near-cache">
			<h2>Near cache</h2>
			<p>Hot values served from the JVM; Redis' client tracking says when a key changed.</p>
			<table>
			<thead><tr><th>cache</th><th class="text">state</th><th>held</th><th>hits / misses / bypassed</th><th>invalidations</th><th>served locally</th></tr></thead>
			<tbody>
			{{nearRows}}</tbody>
			</table>
			</section>
			<section id="comparison">
			<h2>Memory comparison</h2>
			<p><button id="run-comparison" type="button">Run the memory comparison</button>
			<span id="comparison-status">10,000 counters, plain keys vs a sharded namespace</span></p>
			<div id="comparison-chart-holder"><img id="comparison-chart-image" src="/charts/memory-comparison.svg" alt="memory comparison chart" width="560" height="300"></div>
			<table>
			<thead><tr><th>keys</th><th>plain, B/key</th><th>sharded, B/key</th><th>smaller</th></tr></thead>
			<tbody><tr><th id="comparison-keys">–</th><td id="comparison-plain">–</td><td id="comparison-sharded">–</td><td id="comparison-ratio" class="ratio">–</td></tr></tbody>
			</table>
			</section>
			</main>
			<script>
			  document.getElementById('run-comparison').addEventListener('click', async () => {
			    const button = document.getElementById('run-comparison');
			    const status = document.getElementById('comparison-status');
			    button.disabled = true;
			    status.textContent = 'running...';
			    try {
			      const response = await fetch('/memory-comparison', { method: 'POST' });
			      const body = await response.json();
			      if (!response.ok) {
			        status.textContent = body.detail || ('failed: ' + response.status);
			        return;
			      }
			      document.getElementById('comparison-keys').textContent = body.keys.toLocaleString('en');
			      document.getElementById('comparison-plain').textContent = body.plain.bytesPerKey.toFixed(2);
			      document.getElementById('comparison-sharded').textContent = body.sharded.bytesPerKey.toFixed(2);
			      document.getElementById('comparison-ratio').textContent = body.plainToSharded.toFixed(2) + '×';
			      document.getElementById('comparison-chart-image').src = '/charts/memory-comparison.svg?at=' + Date.now();
			      status.textContent = 'done on Redis ' + body.redisVersion;
			    } finally {
			      button.disabled = false;
			    }
			  });
			</script>
			</body>
			</html>
			""";

}
