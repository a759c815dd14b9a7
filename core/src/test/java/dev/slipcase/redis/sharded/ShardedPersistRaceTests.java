package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code persist} racing a set with a TTL of the same key on a server that expires hash fields
 * (Redis 8.0), where a value that fits its field carries a field TTL and a larger one lives in its
 * overflow key. Each round writes a large value with a TTL, then a small value with a TTL while
 * another thread persists the key: the key has a TTL before and after the set, so whichever the
 * persist ran beside, it removed one and must say so. A persist that looks up where the value is
 * and then removes the TTL there can look before the set and remove after it, taking the new value's
 * field TTL while answering that there was none.
 */
class ShardedPersistRaceTests {

	private static final int ROUNDS = 2_000;

	private static final String LARGE = "L".repeat(200);

	private static RedisServer redis;

	private static RedisClient client;

	private static ShardedTemplates templates;

	@BeforeAll
	static void start() {
		redis = RedisServers.startRedis80();
		client = RedisClient.create(redis.endpoint().uri());
		templates = ShardedTemplates.create(client);
	}

	@AfterAll
	static void stop() {
		templates.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		redis.close();
	}

	@Test
	void aPersistRacingASetWithTtlRemovesATtlAndSaysSo() throws Exception {
		ShardedTemplate<String> values = templates.template(ShardedNamespace.builder("race-persist").keyPrefix("p:").build(),
				ShardedTemplateContract.STRINGS);
		CyclicBarrier together = new CyclicBarrier(2);
		List<String> wrong = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			String key = "p:" + (round % 100);
			values.set(key, LARGE + round, Duration.ofHours(1));
			CompletableFuture<Boolean> persist = CompletableFuture.supplyAsync(() -> {
				await(together);
				return values.persist(key);
			});
			await(together);
			values.set(key, "s" + round, Duration.ofHours(1));
			if (!persist.get(1, TimeUnit.MINUTES)) {
				wrong.add("round " + round + ": persist answered false, TTL now " + values.ttlMillis(key) + " ms");
			}
		}
		assertThat(wrong).as("persists that removed a TTL and answered that there was none, of %d", ROUNDS).isEmpty();
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await(1, TimeUnit.MINUTES);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
