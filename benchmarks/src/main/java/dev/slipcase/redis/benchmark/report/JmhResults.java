package dev.slipcase.redis.benchmark.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.benchmark.ProcessCostProfiler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON that JMH writes with {@code -rf json}.
 */
public final class JmhResults {

	private static final String ALLOCATION_METRIC = "gc.alloc.rate.norm";

	private JmhResults() {
	}

	/**
	 * Reads every result in a JMH JSON file.
	 * @throws UncheckedIOException when the file cannot be read
	 * @throws IllegalArgumentException when it is not JMH's JSON
	 */
	public static List<BenchmarkResult> read(Path file) {
		try {
			return parse(Files.readString(file));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read JMH results from " + file, ex);
		}
	}

	static List<BenchmarkResult> parse(String json) {
		JsonNode root = JsonMapper.builder().build().readTree(json);
		if (!root.isArray()) {
			throw new IllegalArgumentException("JMH results must be a JSON array, got " + root.getNodeType());
		}
		List<BenchmarkResult> results = new ArrayList<>();
		for (JsonNode run : root) {
			Map<String, String> params = new LinkedHashMap<>();
			JsonNode paramsNode = run.path("params");
			for (String name : paramsNode.propertyNames()) {
				params.put(name, paramsNode.get(name).asString());
			}
			JsonNode secondary = run.path("secondaryMetrics");
			JsonNode allocation = secondary.path(ALLOCATION_METRIC);
			Map<String, Measurement> costs = new LinkedHashMap<>();
			for (String name : ProcessCostProfiler.METRICS) {
				if (secondary.has(name)) {
					costs.put(name, measurement(secondary.get(name)));
				}
			}
			results.add(new BenchmarkResult(required(run, "benchmark").asString(), required(run, "mode").asString(),
					run.path("threads").asInt(1), params, measurement(required(run, "primaryMetric")),
					allocation.isMissingNode() ? null : measurement(allocation), costs));
		}
		return results;
	}

	private static JsonNode required(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null || value.isNull()) {
			throw new IllegalArgumentException("JMH result without '" + field + "': " + node);
		}
		return value;
	}

	private static Measurement measurement(JsonNode metric) {
		return new Measurement(number(metric.path("score")), number(metric.path("scoreError")),
				metric.path("scoreUnit").asString(""));
	}

	private static double number(JsonNode node) {
		// JMH writes "NaN" as a string when it has too few samples for an error
		return node.isNumber() ? node.asDouble() : Double.NaN;
	}

}
