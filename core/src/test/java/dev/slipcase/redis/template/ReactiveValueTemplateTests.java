package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.leak.LeakReports;
import dev.slipcase.redis.testformat.PickyFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ReactiveValueTemplate} against a real Redis: every operation, laziness,
 * failures naming the key, timeouts and cancellation that cancel the command and release its
 * buffer, and leases that the subscriber closes.
 */
class ReactiveValueTemplateTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> template;

	private static ReactiveValueTemplate<String> strings;

	@BeforeAll
	static void connect() {
		redis = RedisServers.start();
		client = RedisClient.create();
		template = ValueTemplate.create(client, RedisURI.create(redis.endpoint().uri()), PickyFormat.INSTANCE);
		strings = template.reactive();
	}

	@AfterAll
	static void shutdown() {
		template.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		redis.close();
	}

	/**
	 * Every test leaves no buffer unreleased, found right after it rather than whenever a later
	 * test's garbage collection reports it (a held chunk of a cancelled download once leaked).
	 */
	@AfterEach
	void leavesNoLeakedBuffer(TestInfo test) {
		LeakReports.assertNoLeaks(test.getDisplayName());
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@AfterEach
	void unpause() {
		redis.command("CLIENT", "UNPAUSE");
	}

	@Test
	void setThenGetAndAMissingKeyIsEmpty() {
		strings.set("k", "välue").block(WAIT);
		assertThat(strings.get("k").block(WAIT)).isEqualTo("välue");
		assertThat(redis.command("GET", "k")).isEqualTo("välue");
		assertThat(strings.get("missing").hasElement().block(WAIT)).isFalse();
	}

	@Test
	void setWithTtlExpiresAndExpireSetsOne() {
		strings.set("k", "v", Duration.ofSeconds(100)).block(WAIT);
		assertThat((Long) redis.command("PTTL", "k")).isBetween(1L, 100_000L);
		strings.set("j", "v").block(WAIT);
		assertThat(strings.expire("j", Duration.ofSeconds(50)).block(WAIT)).isTrue();
		assertThat((Long) redis.command("PTTL", "j")).isBetween(1L, 50_000L);
		assertThat(strings.expire("missing", Duration.ofSeconds(50)).block(WAIT)).isFalse();
	}

	@Test
	void nothingIsSentUntilSubscribedAndEachSubscriptionSendsAgain() {
		Mono<Long> increment = strings.incrementBy("n", 5);
		Mono<Void> set = strings.set("k", "v");
		assertThat(redis.command("EXISTS", "n", "k")).isEqualTo(0L);
		assertThat(increment.block(WAIT)).isEqualTo(5L);
		assertThat(increment.block(WAIT)).isEqualTo(10L);
		set.block(WAIT);
		assertThat(redis.command("GET", "k")).isEqualTo("v");
	}

	@Test
	void conditionalSetsAndGetAndDelete() {
		assertThat(strings.setIfPresent("k", "first", null).block(WAIT)).isFalse();
		assertThat(strings.setIfAbsent("k", "first", null).block(WAIT)).isTrue();
		assertThat(strings.setIfAbsent("k", "second", Duration.ofSeconds(5)).block(WAIT)).isFalse();
		assertThat(strings.setIfPresent("k", "third", Duration.ofSeconds(50)).block(WAIT)).isTrue();
		assertThat((Long) redis.command("PTTL", "k")).isPositive();
		assertThat(strings.getAndDelete("k").block(WAIT)).isEqualTo("third");
		assertThat(strings.getAndDelete("k").hasElement().block(WAIT)).isFalse();
	}

	@Test
	void multiKeyOperationsKeepTheCallersOrder() {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("a", "1");
		entries.put("c", "3");
		strings.mset(entries).block(WAIT);
		assertThat(strings.mget(List.of("c", "missing", "a")).block(WAIT)).containsExactly("3", null, "1");
		assertThat(strings.exists(List.of("a", "c", "missing", "a")).block(WAIT)).isEqualTo(3L);
		assertThat(strings.delete("a", "missing").block(WAIT)).isEqualTo(1L);
		assertThat(redis.command("EXISTS", "a", "c")).isEqualTo(1L);
	}

	@Test
	void hashOperations() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("x", "1");
		fields.put("y", "2");
		assertThat(strings.hset("h", fields).block(WAIT)).isEqualTo(2L);
		assertThat(strings.hget("h", "y").block(WAIT)).isEqualTo("2");
		assertThat(strings.hget("h", "missing").hasElement().block(WAIT)).isFalse();
		assertThat(strings.hmget("h", List.of("y", "missing", "x")).block(WAIT)).containsExactly("2", null, "1");
	}

	@Test
	void aValueThatCannotBeReadFailsWithASerializationExceptionNamingTheKeyAndFormat() {
		redis.command("SET", "bad", "corrupt bytes");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> strings.get("bad").block(WAIT))
			.withMessageStartingWith("key 'bad': ")
			.withMessageContaining("test-picky");
		strings.set("after", "fine").block(WAIT);
		assertThat(strings.get("after").block(WAIT)).isEqualTo("fine");
	}

	@Test
	void aValueThatCannotBeWrittenFailsItsMonoAndSendsNothing() {
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> strings.set("k", "unwritable").block(WAIT))
			.withMessageStartingWith("key 'k': ")
			.withMessageContaining("refuses to write");
		assertThat(redis.command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void invalidArgumentsThrowAtOnceAsSpringsReactiveTemplateDoes() {
		assertThatIllegalArgumentException().isThrownBy(() -> strings.get(null));
		assertThatIllegalArgumentException().isThrownBy(() -> strings.set("k", null));
		assertThatIllegalArgumentException().isThrownBy(() -> strings.delete("a", null));
		assertThatIllegalArgumentException().isThrownBy(() -> strings.hmget("h", List.of()));
	}

	@Test
	void aLeaseIsTheSubscribersToClose() {
		strings.set("k", "x".repeat(1000)).block(WAIT);
		try (ValueLease lease = strings.lease("k").block(WAIT)) {
			assertThat(lease).isNotNull();
			assertThat(lease.size()).isEqualTo(1000);
		}
		assertThat(strings.lease("missing").hasElement().block(WAIT)).isFalse();
	}

	@Test
	void aLeaseHandedOnStaysTheSubscribersWhenTheSequenceIsCancelledAfterIt() {
		strings.set("a", "x".repeat(100)).block(WAIT);
		strings.set("b", "y".repeat(100)).block(WAIT);
		// next() cancels the concatMap after the first lease: that lease is the caller's, open
		ValueLease first = Flux.just("a", "b").concatMap(strings::lease).next().block(WAIT);
		try (ValueLease lease = first) {
			assertThat(lease).isNotNull();
			assertThat(lease.decode(PickyFormat.INSTANCE)).isEqualTo("x".repeat(100));
		}
	}

	@Test
	void aReplyThatDoesNotComeInTimeFailsWithAQueryTimeoutAndReleasesTheValueAtOnce() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		RedisURI uri = RedisURI.builder(RedisURI.create(redis.endpoint().uri())).withTimeout(Duration.ofMillis(300)).build();
		try (ValueTemplate<String> shortTimeout = ValueTemplate.create(client, uri, PickyFormat.INSTANCE)
			.withAllocator(allocator)) {
			ReactiveValueTemplate<String> reactive = shortTimeout.reactive();
			reactive.set("warm-up", "connects").block(WAIT);
			allocator.forget();
			redis.command("CLIENT", "PAUSE", "10000", "WRITE");
			assertThatExceptionOfType(QueryTimeoutException.class)
				.isThrownBy(() -> reactive.set("k", "v".repeat(1000)).block(WAIT))
				.withMessageContaining("'k'")
				.withMessageContaining("cancelled");
			// Redis still holds the SET: only a cancelled command has released its value already
			assertThat(allocator.buffers()).singleElement().satisfies((buffer) -> assertThat(buffer.refCnt()).isZero());
			redis.command("CLIENT", "UNPAUSE");
			reactive.set("after", "carries on").block(WAIT);
			assertThat(reactive.get("after").block(WAIT)).isEqualTo("carries on");
		}
	}

	@Test
	void cancellingASubscriptionCancelsTheCommandAndReleasesItsValueAtOnce() throws Exception {
		RecordingAllocator allocator = new RecordingAllocator(true);
		// a view: it shares the template's connections, which the template closes
		ReactiveValueTemplate<String> reactive = template.withAllocator(allocator).reactive();
		redis.command("CLIENT", "PAUSE", "10000", "WRITE");
		Disposable subscription = reactive.set("k", "v".repeat(1000)).subscribe();
		waitUntil(() -> !allocator.buffers().isEmpty());
		subscription.dispose();
		assertThat(allocator.buffers()).singleElement().satisfies((buffer) -> assertThat(buffer.refCnt()).isZero());
		redis.command("CLIENT", "UNPAUSE");
		reactive.set("after", "carries on").block(WAIT);
		assertThat(reactive.get("after").block(WAIT)).isEqualTo("carries on");
	}

	private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited 10 s for the condition").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
