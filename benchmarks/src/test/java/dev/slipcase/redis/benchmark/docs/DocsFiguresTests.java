package dev.slipcase.redis.benchmark.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference pages' tables that quote the benchmark report quote it exactly: every measured
 * figure with its error ({@code 4,397 ± 684}, {@code 1.50× ± 0.41}) in a table row of the page is
 * one the report holds, so a regenerated report that changes a figure fails here until the page
 * follows it. Figures from other runs stay out of tables, in prose that names their command.
 * The sharded page's server-time table, whose figures carry no error, quotes the report's rows whole.
 */
class DocsFiguresTests {

	private static final Pattern FIGURE = Pattern
		.compile("\\d{1,3}(?:,\\d{3})*(?:\\.\\d+)?×? ± \\d{1,3}(?:,\\d{3})*(?:\\.\\d+)?");

	@ParameterizedTest
	@ValueSource(strings = { "docs/zero-copy.md", "docs/serializers.md", "docs/multiplexing.md", "docs/reactive.md",
			"docs/near-cache.md", "docs/sharded.md" })
	void tableFiguresAreTheReports(String page) {
		String report = Docs.read(Docs.root().resolve("docs/benchmarks/README.md"));
		List<String> quoted = new ArrayList<>();
		for (String line : Docs.read(Docs.root().resolve(page)).split("\n")) {
			if (line.strip().startsWith("|")) {
				Matcher figure = FIGURE.matcher(line);
				while (figure.find()) {
					quoted.add(figure.group());
				}
			}
		}
		assertThat(quoted).as("figures in the tables of " + page).isNotEmpty();
		assertThat(quoted).as("figures in the tables of " + page + " that the report does not hold")
			.filteredOn((figure) -> !report.contains(figure))
			.isEmpty();
	}

	@Test
	void shardedServerTimeRowsAreTheReports() {
		String report = Docs.read(Docs.root().resolve("docs/benchmarks/README.md"));
		List<String> rows = new ArrayList<>();
		for (String line : Docs.read(Docs.root().resolve("docs/sharded.md")).split("\n")) {
			if (line.startsWith("| Redis ") || line.startsWith("| Valkey ")) {
				rows.add(line.strip());
			}
		}
		assertThat(rows).as("server-time rows of docs/sharded.md").isNotEmpty();
		assertThat(rows).as("server-time rows of docs/sharded.md that the report does not hold")
			.filteredOn((row) -> !report.contains(row + "\n"))
			.isEmpty();
	}

}
