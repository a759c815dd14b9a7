package dev.slipcase.redis.template;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.PickyFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every {@code SerializationException} of a {@link ValueTemplate} names the Redis key, in every
 * form (sync, caller-thread decoding, async, batch) and for every operation that writes or reads a
 * value: values the format cannot write ({@code "unwritable..."}), and values it cannot read,
 * planted with the fixture's own RESP client ({@code "corrupt..."}).
 */
@ExtendWith(RedisExtension.class)
class ValueTemplateKeyedErrorTests {

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> template;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		template = ValueTemplate.create(client, RedisURI.create(server.endpoint().uri()), PickyFormat.INSTANCE);
	}

	@AfterAll
	static void shutdown() {
		template.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void plantUnreadableValues() {
		redis.flushAll();
		redis.command("SET", "unreadable:1", "corrupt bytes");
		redis.command("HSET", "hash:1", "good", "fine", "bad", "corrupt field");
	}

	@Test
	void setNamesTheKey() {
		assertNamesKey(() -> template.set("order:1", "unwritable"), "order:1");
		assertNamesKey(() -> template.set("order:1", "unwritable", Duration.ofMinutes(1)), "order:1");
	}

	@Test
	void conditionalSetsNameTheKey() {
		assertNamesKey(() -> template.setIfAbsent("order:2", "unwritable", null), "order:2");
		assertNamesKey(() -> template.setIfPresent("order:3", "unwritable", null), "order:3");
	}

	@Test
	void msetNamesTheKeyOfTheValueThatCannotBeWritten() {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put("order:4", "fine");
		entries.put("order:5", "unwritable");
		assertNamesKey(() -> template.mset(entries), "order:5");
	}

	@Test
	void hsetNamesTheKeyAndTheField() {
		assertThat(assertNamesKey(() -> template.hset("hash:2", "f", "unwritable"), "hash:2")).hasMessageContaining("'f'");
		assertThat(assertNamesKey(() -> template.hset("hash:2", Map.of("g", "unwritable")), "hash:2"))
			.hasMessageContaining("'g'");
	}

	@Test
	void getAndGetAndDeleteNameTheKey() {
		assertNamesKey(() -> template.get("unreadable:1"), "unreadable:1");
		assertNamesKey(() -> template.getAndDelete("unreadable:1"), "unreadable:1");
	}

	@Test
	void mgetNamesTheKeyOfTheValueThatCannotBeRead() {
		template.set("readable:1", "fine");
		assertNamesKey(() -> template.mget(List.of("readable:1", "unreadable:1")), "unreadable:1");
	}

	@Test
	void hgetAndHmgetNameTheKeyAndTheField() {
		assertThat(assertNamesKey(() -> template.hget("hash:1", "bad"), "hash:1")).hasMessageContaining("'bad'");
		assertThat(assertNamesKey(() -> template.hmget("hash:1", List.of("good", "bad")), "hash:1"))
			.hasMessageContaining("'bad'");
	}

	@Test
	void callerThreadDecodingNamesTheKey() {
		ValueTemplate<String> callerDecoding = template.withCallerThreadDecoding();
		assertNamesKey(() -> callerDecoding.get("unreadable:1"), "unreadable:1");
		assertThat(assertNamesKey(() -> callerDecoding.hget("hash:1", "bad"), "hash:1")).hasMessageContaining("'bad'");
		assertNamesKey(() -> callerDecoding.getAndDelete("unreadable:1"), "unreadable:1");
	}

	@Test
	void asyncFuturesFailNamingTheKey() {
		assertNamesKey(template.async().set("order:6", "unwritable"), "order:6");
		assertNamesKey(template.async().get("unreadable:1"), "unreadable:1");
	}

	@Test
	void batchFuturesFailNamingTheKey() {
		ValueBatch<String> batch = template.batch();
		CompletableFuture<Void> unwritable = batch.set("order:7", "unwritable");
		CompletableFuture<String> unreadable = batch.get("unreadable:1");
		batch.execute().exceptionally((ex) -> null).join();
		assertNamesKey(unwritable, "order:7");
		assertNamesKey(unreadable, "unreadable:1");
	}

	private static Throwable assertNamesKey(CompletableFuture<?> future, String key) {
		return assertNamesKey(future::join, key);
	}

	private static Throwable assertNamesKey(ThrowingCallable call, String key) {
		Throwable thrown = catchThrowable(call);
		if (thrown instanceof CompletionException) {
			thrown = thrown.getCause();
		}
		assertThat(thrown).isInstanceOf(KeyedSerializationException.class).hasMessageContaining("key '" + key + "'");
		assertThat(((KeyedSerializationException) thrown).key()).isEqualTo(key);
		return thrown;
	}

}
