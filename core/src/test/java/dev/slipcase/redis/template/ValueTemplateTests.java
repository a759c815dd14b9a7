package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.codec.FormatCodec;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.PickyFormat;
import dev.slipcase.redis.testformat.Point;
import dev.slipcase.redis.testformat.PointFormat;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ValueTemplate} against a real standalone Redis: every operation in its sync,
 * async and batch form, per-database views, leases, and failures confined to their own command.
 */
@ExtendWith(RedisExtension.class)
class ValueTemplateTests {

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> strings;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		strings = ValueTemplate.create(client, RedisURI.create(server.endpoint().uri()), PickyFormat.INSTANCE);
	}

	@AfterAll
	static void shutdown() {
		strings.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@Test
	void setThenGet() {
		strings.set("k", "välue");
		assertThat(strings.get("k")).isEqualTo("välue");
		assertThat(redis.command("GET", "k")).isEqualTo("välue");
	}

	@Test
	void getOfAMissingKeyIsNull() {
		assertThat(strings.get("missing")).isNull();
	}

	@Test
	void setWithTtlExpires() {
		strings.set("k", "v", Duration.ofSeconds(100));
		assertThat((Long) redis.command("PTTL", "k")).isBetween(1L, 100_000L);
	}

	@Test
	void setIfAbsentSetsOnlyAMissingKey() {
		assertThat(strings.setIfAbsent("k", "first", null)).isTrue();
		assertThat(strings.setIfAbsent("k", "second", Duration.ofSeconds(5))).isFalse();
		assertThat(strings.get("k")).isEqualTo("first");
		assertThat(redis.command("PTTL", "k")).isEqualTo(-1L);
	}

	@Test
	void setIfPresentSetsOnlyAnExistingKey() {
		assertThat(strings.setIfPresent("k", "first", null)).isFalse();
		assertThat(strings.exists("k")).isZero();
		strings.set("k", "old");
		assertThat(strings.setIfPresent("k", "new", Duration.ofSeconds(50))).isTrue();
		assertThat(strings.get("k")).isEqualTo("new");
		assertThat((Long) redis.command("PTTL", "k")).isPositive();
	}

	@Test
	void getAndDeleteReturnsTheValueAndRemovesTheKey() {
		strings.set("k", "v");
		assertThat(strings.getAndDelete("k")).isEqualTo("v");
		assertThat(strings.getAndDelete("k")).isNull();
		assertThat(strings.exists("k")).isZero();
	}

	@Test
	void mgetReturnsValuesInTheCallersOrderWithNullForMissingKeys() {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("a", "1");
		entries.put("c", "3");
		strings.mset(entries);
		assertThat(strings.mget(List.of("c", "missing", "a", "c"))).containsExactly("3", null, "1", "3");
		assertThat(strings.mget(List.of())).isEmpty();
	}

	@Test
	void deleteAndExistsCountKeys() {
		strings.mset(Map.of("a", "1", "b", "2"));
		assertThat(strings.exists("a", "b", "missing")).isEqualTo(2);
		assertThat(strings.delete("a", "missing")).isEqualTo(1);
		assertThat(strings.exists(List.of("a", "b"))).isEqualTo(1);
	}

	@Test
	void expireSetsATtlOnAnExistingKeyOnly() {
		strings.set("k", "v");
		assertThat(strings.expire("k", Duration.ofSeconds(30))).isTrue();
		assertThat(strings.expire("missing", Duration.ofSeconds(30))).isFalse();
		assertThat((Long) redis.command("PTTL", "k")).isBetween(1L, 30_000L);
	}

	@Test
	void incrementByCounts() {
		assertThat(strings.incrementBy("n", 5)).isEqualTo(5);
		assertThat(strings.incrementBy("n", -2)).isEqualTo(3);
	}

	@Test
	void hashFieldsAreWrittenAndReadInTheCallersOrder() {
		assertThat(strings.hset("h", "f1", "v1")).isTrue();
		assertThat(strings.hset("h", "f1", "v1b")).isFalse();
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("f2", "v2");
		fields.put("f3", "v3");
		assertThat(strings.hset("h", fields)).isEqualTo(2);
		assertThat(strings.hget("h", "f1")).isEqualTo("v1b");
		assertThat(strings.hget("h", "nope")).isNull();
		assertThat(strings.hmget("h", List.of("f3", "nope", "f1"))).containsExactly("v3", null, "v1b");
	}

	@Test
	void asyncFormCompletesWhenRedisReplies() throws Exception {
		AsyncValueTemplate<String> async = strings.async();
		CompletableFuture<Void> set = async.set("k", "v");
		CompletableFuture<String> get = async.get("k");
		set.get(10, TimeUnit.SECONDS);
		assertThat(get.get(10, TimeUnit.SECONDS)).isEqualTo("v");
	}

	@Test
	void batchSendsEveryCommandAndReportsEachResult() throws Exception {
		ValueBatch<String> batch = strings.batch();
		List<CompletableFuture<Long>> counts = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			batch.set("k" + i, "v" + i);
			counts.add(batch.incrementBy("counter", 1));
		}
		CompletableFuture<String> last = batch.get("k99");
		assertThat(batch.size()).isEqualTo(201);
		batch.execute().get(10, TimeUnit.SECONDS);
		assertThat(last.join()).isEqualTo("v99");
		assertThat(counts.get(99).join()).isEqualTo(100);
		assertThat(strings.mget(List.of("k0", "k50"))).containsExactly("v0", "v50");
	}

	@Test
	void batchReportsAFailedCommandAsAFailure() {
		strings.set("text", "not a number");
		ValueBatch<String> batch = strings.batch();
		CompletableFuture<Void> ok = batch.set("k", "v");
		CompletableFuture<Long> failing = batch.incrementBy("text", 1);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> batch.execute().get(10, TimeUnit.SECONDS))
			.withMessageContaining("not an integer");
		assertThat(ok).succeedsWithin(Duration.ofSeconds(10));
		assertThat(failing).isCompletedExceptionally();
	}

	@Test
	void batchWithAValueThatCannotBeSerializedFailsAndSendsTheRest() {
		ValueBatch<String> batch = strings.batch();
		CompletableFuture<Void> ok = batch.set("k", "v");
		CompletableFuture<Void> unwritable = batch.set("u", "unwritable!");
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> batch.execute().get(10, TimeUnit.SECONDS))
			.havingRootCause()
			.isInstanceOf(SerializationException.class);
		assertThat(ok).succeedsWithin(Duration.ofSeconds(10));
		assertThat(unwritable).isCompletedExceptionally();
		assertThat(strings.get("k")).isEqualTo("v");
		assertThat(strings.exists("u")).isZero();
	}

	@Test
	void aBatchRunsOnce() {
		ValueBatch<String> batch = strings.batch();
		batch.execute().join();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(batch::execute)
			.withMessageContaining("already executed");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> batch.get("k"));
	}

	@Test
	void aValueThatCannotBeSerializedFailsItsCallOnlyAndLeaksNothing() throws Exception {
		CompletableFuture<String> inFlight = strings.async().get("k");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> strings.set("k", "unwritable"))
			.withMessageStartingWith("key 'k': ")
			.withMessageContaining("refuses to write");
		assertThat(inFlight.get(10, TimeUnit.SECONDS)).isNull();
		strings.set("k", "fine");
		assertThat(strings.get("k")).isEqualTo("fine");
	}

	@Test
	void aValueThatCannotBeDecodedFailsItsCommandOnlyNamingKeyAndFormat() throws Exception {
		redis.command("SET", "bad", "corrupt bytes");
		redis.command("SET", "good", "fine");
		AsyncValueTemplate<String> async = strings.async();
		CompletableFuture<String> before = async.get("good");
		CompletableFuture<String> bad = async.get("bad");
		CompletableFuture<List<String>> badInMget = async.mget(List.of("good", "bad"));
		CompletableFuture<String> after = async.get("good");
		assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo("fine");
		assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo("fine");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> strings.get("bad"))
			.withMessageStartingWith("key 'bad': ")
			.withMessageContaining("test-picky");
		assertThat(bad).isCompletedExceptionally();
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> badInMget.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(KeyedSerializationException.class)
			.withMessageContaining("key 'bad': ");
		redis.command("SET", "crashing", "crash");
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> strings.get("crashing"))
			.withMessageContaining("crashed");
	}

	@Test
	void valuesWrittenByTheTemplateAreReadableThroughTheCodecOfTheSameFormat() {
		ValueTemplate<Point> points = strings.withFormat(PointFormat.INSTANCE);
		points.set("p", new Point(1, 2, 3));
		try (StatefulRedisConnection<String, Point> connection = client.connect(FormatCodec.of(PointFormat.INSTANCE),
				RedisURI.create(redis.endpoint().uri()))) {
			assertThat(connection.sync().get("p")).isEqualTo(new Point(1, 2, 3));
			connection.sync().set("q", new Point(4, 5, 6));
		}
		assertThat(points.get("q")).isEqualTo(new Point(4, 5, 6));
	}

	@Test
	void databaseViewsAreIsolated() {
		ValueTemplate<String> three = strings.forDatabase(3);
		ValueTemplate<String> four = strings.forDatabase(4);
		three.set("shared", "three");
		four.set("shared", "four");
		assertThat(three.get("shared")).isEqualTo("three");
		assertThat(four.get("shared")).isEqualTo("four");
		assertThat(strings.get("shared")).isNull();
		assertThat(three.database()).isEqualTo(3);
	}

	@Test
	void aDatabaseThatDoesNotExistFailsItsCallsOnly() {
		ValueTemplate<String> missing = strings.forDatabase(999);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> missing.get("k"));
		assertThat(strings.forDatabase(1).get("k")).isNull();
	}

	@Test
	void leaseHoldsTheRawBytesUntilClosed() {
		strings.set("k", "lease me");
		ByteBuf content;
		try (ValueLease lease = strings.lease("k")) {
			assertThat(lease).isNotNull();
			content = lease.content();
			assertThat(lease.size()).isEqualTo(8);
			assertThat(lease.decode(Utf8TestFormat.INSTANCE)).isEqualTo("lease me");
			assertThat(content.refCnt()).isPositive();
		}
		assertThat(content.refCnt()).isZero();
		assertThat(strings.lease("missing")).isNull();
	}

	@Test
	void cancelledCommandsReleaseTheirBuffersAndTheConnectionCarriesOn() throws Exception {
		AsyncValueTemplate<String> async = strings.async();
		List<CompletableFuture<?>> futures = new ArrayList<>();
		for (int i = 0; i < 500; i++) {
			futures.add(async.set("k" + i, "v".repeat(2000)));
			futures.add(async.lease("k" + i));
		}
		futures.forEach((future) -> future.cancel(false));
		assertThat(strings.incrementBy("n", 1)).isEqualTo(1);
		for (CompletableFuture<?> future : futures) {
			if (!future.isCancelled()) {
				Object result = future.get(10, TimeUnit.SECONDS);
				if (result instanceof ValueLease lease) {
					lease.close();
				}
			}
		}
	}

	@Test
	void msetWithAValueThatCannotBeWrittenSendsNothingAndLeaksNothing() {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("a", "fine");
		entries.put("b", "unwritable");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> strings.mset(entries))
			.withMessageStartingWith("key 'b': ");
		entries.put("b", null);
		assertThatIllegalArgumentException().isThrownBy(() -> strings.mset(entries)).withMessageContaining("'b'");
		assertThat(strings.exists("a", "b")).isZero();
	}

	@Test
	void callerThreadDecodingReadsTheSameValuesAndFailsTheSameWay() {
		ValueTemplate<String> callerDecoding = strings.withCallerThreadDecoding();
		strings.set("k", "välue");
		strings.hset("h", "f", "field value");
		assertThat(callerDecoding.get("k")).isEqualTo("välue");
		assertThat(callerDecoding.get("missing")).isNull();
		assertThat(callerDecoding.hget("h", "f")).isEqualTo("field value");
		assertThat(callerDecoding.hget("h", "nope")).isNull();
		assertThat(callerDecoding.getAndDelete("k")).isEqualTo("välue");
		assertThat(strings.exists("k")).isZero();
		redis.command("SET", "bad", "corrupt");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> callerDecoding.get("bad"))
			.withMessageStartingWith("key 'bad': ")
			.withMessageContaining("test-picky");
	}

	@Test
	void rejectsBadArguments() {
		assertThatIllegalArgumentException().isThrownBy(() -> strings.get(null)).withMessageContaining("key");
		assertThatIllegalArgumentException().isThrownBy(() -> strings.set("k", "v", Duration.ZERO))
			.withMessageContaining("ttl");
		assertThatIllegalArgumentException().isThrownBy(() -> strings.forDatabase(-1))
			.withMessageContaining("database");
		assertThatIllegalArgumentException().isThrownBy(() -> strings.set("k", null)).withMessageContaining("value");
	}

}
