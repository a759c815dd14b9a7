package dev.slipcase.redis.serializer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.benchmark.Payload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StoredSizeReportTests {

	@Test
	void printsOneRowPerPayloadWithTheBaselineAtOne() {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		StoredSizeReport.print(new PrintStream(bytes, true, StandardCharsets.UTF_8),
				List.of("spring-generic-json", "slipcase-json", "slipcase-protostuff"));
		List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
		assertThat(lines).hasSize(2 + Payload.values().length);
		assertThat(lines.get(0)).isEqualTo("| payload | spring-generic-json | slipcase-json | slipcase-protostuff |");
		assertThat(lines.subList(2, lines.size())).allSatisfy((line) -> assertThat(line).contains("(1.00×)"));
	}

	@Test
	void protostuffStoresAtMostSixTenthsOfTypedJsonForTheOrder() {
		int json = StoredSizeReport.size("slipcase-json", Payload.ORDER);
		int protostuff = StoredSizeReport.size("slipcase-protostuff", Payload.ORDER);
		assertThat(protostuff).isLessThanOrEqualTo(json * 6 / 10);
	}

}
