package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.GenericToStringSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code expire} racing writes to the same key on a server without hash-field expiration (Redis
 * 7.0), where a value in its bucket moves to its overflow key to carry the TTL: one thread writes
 * a key while another expires that same key over and over. No acknowledged write may be undone:
 * every increment counts, and a deleted key stays deleted.
 */
class ShardedExpireRaceTests {

	private static final int KEYS = 300;

	private static RedisServer redis;

	private static RedisClient client;

	private static ShardedTemplates templates;

	@BeforeAll
	static void start() {
		redis = RedisServers.start();
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
	void anExpireRacingIncrementsUndoesNone() throws Exception {
		assertThat(redis.isAtLeast(7, 4)).as("a server without hash-field expiration").isFalse();
		ShardedTemplate<Long> counters = templates.template(ShardedNamespace.builder("race-incr").keyPrefix("c:").build(),
				new GenericToStringSerializer<>(Long.class));
		race(counters, (key) -> {
			for (int i = 0; i < 5; i++) {
				counters.incrBy(key, 1);
			}
		}, "c:");
		List<String> short_ = new ArrayList<>();
		for (int k = 0; k < KEYS; k++) {
			Long value = counters.get("c:" + k);
			if (value == null || value != 5) {
				short_.add("c:" + k + "=" + value);
			}
		}
		assertThat(short_).as("counters that lost acknowledged increments").isEmpty();
	}

	@Test
	void anExpireRacingDeletesBringsNoKeyBack() throws Exception {
		ShardedTemplate<Long> values = templates.template(ShardedNamespace.builder("race-del").keyPrefix("d:").build(),
				new GenericToStringSerializer<>(Long.class));
		race(values, (key) -> {
			for (int i = 0; i < 3; i++) {
				values.set(key, (long) i);
				values.delete(key);
			}
		}, "d:");
		List<String> back = new ArrayList<>();
		for (int k = 0; k < KEYS; k++) {
			if (values.get("d:" + k) != null) {
				back.add("d:" + k);
			}
		}
		assertThat(back).as("deleted keys that came back").isEmpty();
	}

	/** Runs {@code writes} on each key in turn while another thread expires the key being written. */
	private static void race(ShardedTemplate<Long> template, Consumer<String> writes, String prefix) throws Exception {
		AtomicReference<String> current = new AtomicReference<>(prefix + 0);
		AtomicBoolean running = new AtomicBoolean(true);
		CompletableFuture<Long> expirer = CompletableFuture.supplyAsync(() -> {
			long calls = 0;
			while (running.get()) {
				template.expire(current.get(), Duration.ofHours(1));
				calls++;
			}
			return calls;
		});
		try {
			for (int k = 0; k < KEYS; k++) {
				current.set(prefix + k);
				writes.accept(prefix + k);
			}
		}
		finally {
			running.set(false);
		}
		assertThat(expirer.get(1, TimeUnit.MINUTES)).isPositive();
	}

}
