package dev.slipcase.redis.sample.savings;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.sample.SampleWebTests;
import dev.slipcase.redis.sample.document.Documents;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.DefaultApplicationArguments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * {@code GET /savings}, {@code POST /memory-comparison} and the {@code --compare-memory}
 * command-line mode, measuring a real Redis.
 */
class SavingsWebTests extends SampleWebTests {

	@Autowired
	private MemoryComparison comparison;

	@Test
	void savingsReportsWhatIsStored() {
		Savings.Report report = this.client.get()
			.uri("/savings")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Savings.Report.class)
			.returnResult()
			.getResponseBody();
		Savings.StoredValue product = report.cached().get("products");
		assertThat(product.key()).isEqualTo("products::1");
		assertThat(product.storedAs()).startsWith("json");
		assertThat(product.storedBytes()).isEqualTo(strlen("products::1")).isPositive();
		assertThat(product.memoryUsage()).isGreaterThan(product.storedBytes());
		assertThat(product.springJsonToStored()).isGreaterThan(1.0);
		Savings.StoredValue listing = report.cached().get("categories");
		assertThat(listing.key()).isEqualTo("categories::books");
		assertThat(listing.storedAs()).isEqualTo("protostuff+zstd");
		assertThat(listing.storedBytes()).isEqualTo(strlen("categories::books"))
			.isLessThan(listing.sameValueIn().get("slipcase-protostuff"));
		assertThat(listing.sameValueIn().get("slipcase-protostuff")).isLessThan(listing.sameValueIn().get("slipcase-json"));
		assertThat(listing.springJsonToStored()).isGreaterThan(5.0);
		Savings.ShardedCost views = report.sharded().get("product-views");
		assertThat(views.keys()).isGreaterThanOrEqualTo(450);
		assertThat(views.flippedBuckets()).isZero();
		assertThat(views.shardedBytesPerKey()).isPositive();
		assertThat(views.plainBytesPerKey()).isGreaterThan(views.shardedBytesPerKey());
		assertThat(views.plainToSharded()).isGreaterThan(1.0);
		Savings.ShardedCost flags = report.sharded().get("feature-flags");
		assertThat(flags.keys()).isPositive();
		assertThat(flags.plainBytesPerKey()).isGreaterThan(flags.shardedBytesPerKey()).isPositive();
		assertThat(report.document().storedBytes()).isEqualTo(strlen(Documents.key(Documents.PRICE_LIST)))
			.isGreaterThan(200_000);
		assertThat(report.document().memoryUsage()).isGreaterThanOrEqualTo(report.document().storedBytes());
		// the plain probes are gone again
		assertThat(redis().command("EXISTS", "views:1", "flags:1:featured")).isEqualTo(0L);
	}

	@Test
	void memoryComparisonMeasuresPlainAndShardedKeys() {
		MemoryComparison.Result result = compare(5000);
		assertThat(result.keys()).isEqualTo(5000);
		assertThat(result.redisVersion()).isEqualTo(redis().version());
		assertThat(result.plain().memoryUsage()).isPositive();
		assertThat(result.sharded().memoryUsage()).isPositive();
		assertThat(result.plain().bytesPerKey()).isGreaterThan(result.sharded().bytesPerKey());
		assertThat(result.plainToSharded()).isGreaterThan(2.0);
		assertThat(result.buckets()).isPositive();
		assertThat(result.flippedBuckets()).isZero();
		// both sets are deleted afterwards
		assertThat(redis().command("EXISTS", "demo:0", "demo:4999")).isEqualTo(0L);
		assertThat(redis().command("EXISTS", "~sc:{md:n:0}")).isEqualTo(0L);
	}

	@Test
	void theSameComparisonGivesTheSameRatioWhateverElseRedisIsDoing() throws Exception {
		List<Double> ratios = new ArrayList<>();
		for (int run = 0; run < 3; run++) {
			// other traffic between and during runs: keys written and unlinked in the background
			redis().command("SET", "other:" + run, "x".repeat(100_000));
			redis().command("UNLINK", "other:" + run);
			ratios.add(compare(10_000).plainToSharded());
		}
		double first = ratios.get(0);
		assertThat(ratios).allSatisfy((ratio) -> assertThat(ratio).isPositive().isCloseTo(first, withinPercentage(5)));
	}

	@Test
	void aSecondComparisonWhileOneRunsIsAConflict() throws Exception {
		ExecutorService background = Executors.newSingleThreadExecutor();
		try {
			Future<MemoryComparison.Result> running = background.submit(() -> this.comparison.compare(150_000));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!this.comparison.isRunning() && !running.isDone() && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			assertThat(this.comparison.isRunning()).as("the first comparison is running").isTrue();
			this.client.post()
				.uri("/memory-comparison?keys=10")
				.exchange()
				.expectStatus()
				.isEqualTo(409)
				.expectHeader()
				.contentType("application/problem+json")
				.expectBody()
				.jsonPath("$.detail")
				.isEqualTo("A memory comparison is running; send this one again when it has finished");
			assertThat(running.get(60, TimeUnit.SECONDS).keys()).isEqualTo(150_000);
		}
		finally {
			background.shutdownNow();
		}
	}

	private MemoryComparison.Result compare(int keys) {
		return this.client.post()
			.uri("/memory-comparison?keys=" + keys)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(MemoryComparison.Result.class)
			.returnResult()
			.getResponseBody();
	}

	@Test
	void memoryComparisonRefusesTooManyKeys() {
		this.client.post()
			.uri("/memory-comparison?keys=200001")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.detail")
			.isEqualTo("keys must be between 1 and 200000, was 200001");
		this.client.post().uri("/memory-comparison?keys=0").exchange().expectStatus().isBadRequest();
	}

	@Test
	void commandLineModePrintsTheComparison() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		new MemoryComparisonRunner(this.comparison, new PrintStream(out, true, StandardCharsets.UTF_8))
			.run(new DefaultApplicationArguments("--compare-memory=2000"));
		assertThat(out.toString(StandardCharsets.UTF_8)).contains("2,000 counters")
			.contains("plain keys")
			.contains("sharded")
			.contains("plain / sharded");
	}

	@Test
	void commandLineModeIsOffWithoutTheOption() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		new MemoryComparisonRunner(this.comparison, new PrintStream(out, true, StandardCharsets.UTF_8))
			.run(new DefaultApplicationArguments());
		assertThat(out.size()).isZero();
	}

	private static long strlen(String key) {
		return (Long) redis().command("STRLEN", key);
	}

}
