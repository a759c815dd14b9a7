package dev.slipcase.redis.template;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisCluster;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ValueTemplate} on a real three-master Redis Cluster: multi-key operations
 * split by slot and reassembled in the caller's order, batches across nodes, large values.
 */
@ExtendWith(RedisExtension.class)
class ValueTemplateClusterTests {

	private static RedisCluster cluster;

	private static RedisClusterClient client;

	private static ValueTemplate<String> strings;

	@BeforeAll
	static void connect(RedisCluster shared) {
		cluster = shared;
		client = RedisClusterClient.create(shared.endpoints().stream().map((e) -> RedisURI.create(e.uri())).toList());
		strings = ValueTemplate.create(client, Utf8TestFormat.INSTANCE);
	}

	@AfterAll
	static void shutdown() {
		strings.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		cluster.flushAll();
	}

	@Test
	void keysOfTheTestSpanSeveralSlots() {
		assertThat(keys(50).stream().map(SlotHash::getSlot).distinct().count()).isGreaterThan(40);
	}

	@Test
	void msetAndMgetSplitBySlotAndKeepTheCallersOrder() {
		Map<String, String> entries = new LinkedHashMap<>();
		keys(50).forEach((key) -> entries.put(key, "value of " + key));
		strings.mset(entries);
		List<String> asked = new ArrayList<>(keys(50));
		java.util.Collections.reverse(asked);
		asked.add(10, "missing");
		List<String> expected = asked.stream().map((key) -> key.equals("missing") ? null : "value of " + key).toList();
		assertThat(strings.mget(asked)).containsExactlyElementsOf(expected);
	}

	@Test
	void deleteAndExistsSumOverSlots() {
		keys(20).forEach((key) -> strings.set(key, "v"));
		assertThat(strings.exists(keys(25))).isEqualTo(20);
		assertThat(strings.delete(keys(10))).isEqualTo(10);
		assertThat(strings.exists(keys(25))).isEqualTo(10);
	}

	@Test
	void batchAcrossNodesCompletesEveryCommand() throws Exception {
		ValueBatch<String> batch = strings.batch();
		List<CompletableFuture<Long>> counters = new ArrayList<>();
		for (String key : keys(100)) {
			counters.add(batch.incrementBy(key, 7));
		}
		CompletableFuture<List<String>> many = batch.mget(keys(100));
		batch.execute().get(10, TimeUnit.SECONDS);
		assertThat(counters).allSatisfy((counter) -> assertThat(counter.join()).isEqualTo(7));
		assertThat(many.join()).hasSize(100).allSatisfy((value) -> assertThat(value).isEqualTo("7"));
	}

	@Test
	void singleKeyOperationsAreRoutedToTheKeysNode() {
		for (String key : keys(30)) {
			strings.set(key, key, Duration.ofMinutes(1));
			assertThat(strings.getAndDelete(key)).isEqualTo(key);
			strings.hset("h" + key, "f", "v");
			assertThat(strings.hmget("h" + key, List.of("f", "g"))).containsExactly("v", null);
		}
	}

	@Test
	void largeValuesUseATemporaryKeyOfTheSameSlot() throws Exception {
		byte[] value = new byte[300_000];
		new Random(7).nextBytes(value);
		ValueTemplate<String> chunked = strings.withChunkSize(64 * 1024);
		for (String key : List.of("large", "{user:1}:avatar", "braces{in}the{middle}")) {
			chunked.upload(key, new ByteArrayInputStream(value), value.length);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			assertThat(chunked.download(key, out)).isEqualTo(value.length);
			assertThat(out.toByteArray()).isEqualTo(value);
		}
	}

	@Test
	void aKeyForWhichNoTemporaryKeyOfTheSameSlotExistsIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> strings.upload("odd{}key", new ByteArrayInputStream(new byte[10]), 10))
			.withMessageContaining("give it a hash tag");
	}

	@Test
	void aClusterHasOnlyDatabaseZero() {
		assertThat(strings.forDatabase(0).get("k")).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> strings.forDatabase(1))
			.withMessageContaining("only database 0");
	}

	private static List<String> keys(int count) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			keys.add("key:" + i);
		}
		return keys;
	}

}
