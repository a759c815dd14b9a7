package dev.slipcase.redis.sharded;

import java.util.List;

import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BucketReadCostReport} on a small keyspace: every shape is read and counted, and MGET is its own baseline. */
class BucketReadCostReportTests {

	@Test
	void everyShapeOfAReadIsCountedAgainstMget() {
		List<BucketReadCostReport.Row> rows = BucketReadCostReport.measure(RedisServers::start, 2_000, 200);
		assertThat(rows).extracting((row) -> row.shape().label())
			.containsExactly("MGET", "100 HGETs", "script of 100 HGETs", "100 HGETs", "script of 100 HGETs",
					"100 HGETs", "script of 100 HGETs");
		assertThat(rows).extracting((row) -> row.shape().fields()).containsExactly(0, 128, 128, 64, 64, 32, 32);
		assertThat(rows.get(0).micros().ratio()).isEqualTo(1.0);
		assertThat(rows.get(0).cpu().ratio()).isEqualTo(1.0);
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row.calls()).isEqualTo(200);
			assertThat(row.micros().mean()).isPositive();
			assertThat(row.micros().lowest()).isPositive().isLessThanOrEqualTo(row.micros().highest());
			assertThat(row.cpu().mean()).isPositive();
		});
		String markdown = BucketReadCostReport.markdown(2_000, rows);
		assertThat(markdown.lines().filter((line) -> line.startsWith("| " + rows.get(0).version() + " |"))).hasSize(7);
	}

}
