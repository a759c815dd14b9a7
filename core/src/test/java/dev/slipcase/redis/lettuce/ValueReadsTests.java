package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests {@link ValueReads} against a real server, on a client of default resources (the reads go
 * out as commands of their own after a {@code PING}) and on one of {@link WriteCoalescing}'s (as
 * one command).
 */
@ExtendWith(RedisExtension.class)
@ParameterizedClass(name = "[{index}] {0}")
@EnumSource(RecordingClients.Kind.class)
class ValueReadsTests {

	private static RedisServer redis;

	private static RecordingClients clients;

	@Parameter
	RecordingClients.Kind kind;

	private CommandChannel<byte[], byte[]> channel;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		clients = new RecordingClients();
	}

	@AfterAll
	static void shutdown() {
		clients.shutdown();
	}

	@BeforeEach
	void openChannel() {
		redis.flushAll();
		RedisClient client = clients.client(this.kind);
		this.channel = new CommandChannel<>(ConnectionHolder.opening(
				Connectors.of(client, RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE),
				ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(2)), 0, Duration.ofSeconds(5));
	}

	@AfterEach
	void closeChannel() {
		this.channel.connections().close();
	}

	@Test
	void eachValueIsStoredAtItsPositionAndAKeyWithoutOneIsNull() throws Exception {
		this.channel.call(BinaryCommands.set(bytes("k"), bytes("plain"), 0), "set", "k");
		this.channel.call(BinaryCommands.hset(bytes("h"), bytes("a"), bytes("1")), "hset", "h");
		this.channel.call(BinaryCommands.hset(bytes("h"), bytes("b"), bytes("2")), "hset", "h");
		clients.dispatched().clear();
		ValueReads reads = ValueReads.of(4, 6);
		reads.hmget(bytes("h"), new byte[][] { bytes("b"), bytes("missing"), bytes("a") }, new int[] { 5, 0, 1 });
		reads.get(bytes("k"), 3);
		reads.hget(bytes("h"), bytes("a"), 4);
		reads.get(bytes("absent"), 2);
		List<byte[]> values = reads.send(this.channel).get(10, TimeUnit.SECONDS);
		assertThat(values).extracting((value) -> (value != null) ? new String(value, StandardCharsets.UTF_8) : null)
			.containsExactly(null, "1", null, "plain", "1", "2");
		if (this.kind == RecordingClients.Kind.SLIPCASE_RESOURCES) {
			assertThat(clients.dispatched()).containsExactly(BlockKeyword.READS.toString());
		}
		else {
			assertThat(clients.dispatched()).containsExactly("HMGET", "GET", "HGET", "GET");
		}
	}

	@Test
	void readsSentWhileTheConnectionOpensGoOutAsCommandsOfTheirOwn() throws Exception {
		this.channel.call(BinaryCommands.set(bytes("k"), bytes("plain"), 0), "set", "k");
		this.channel.call(BinaryCommands.hset(bytes("h"), bytes("a"), bytes("1")), "hset", "h");
		RedisClient client = clients.client(this.kind);
		CommandChannel<byte[], byte[]> opening = new CommandChannel<>(ConnectionHolder.opening(
				Connectors.of(client, RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE),
				ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(2)), 0, Duration.ofSeconds(5));
		try {
			clients.dispatched().clear();
			ValueReads reads = ValueReads.of(2, 2);
			reads.hget(bytes("h"), bytes("a"), 1);
			reads.get(bytes("k"), 0);
			List<byte[]> values = reads.send(opening).get(10, TimeUnit.SECONDS);
			assertThat(values).extracting((value) -> new String(value, StandardCharsets.UTF_8))
				.containsExactly("plain", "1");
			assertThat(clients.dispatched()).doesNotContain(BlockKeyword.READS.toString());
			if (this.kind == RecordingClients.Kind.SLIPCASE_RESOURCES) {
				// the dispatcher's batch of them, once the connection is open
				assertThat(clients.dispatched()).endsWith(BlockKeyword.BATCH.toString());
			}
			else {
				assertThat(clients.dispatched()).endsWith("HGET", "GET");
			}
		}
		finally {
			opening.connections().close();
		}
	}

	@Test
	void aReadOfAKeyOfTheWrongTypeFailsTheWholeReadWithRedissWords() {
		this.channel.call(BinaryCommands.set(bytes("k"), bytes("plain"), 0), "set", "k");
		ValueReads reads = ValueReads.of(2, 2);
		reads.get(bytes("k"), 0);
		reads.hget(bytes("k"), bytes("f"), 1);
		CompletableFuture<List<byte[]>> values = reads.send(this.channel);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> values.get(10, TimeUnit.SECONDS))
			.havingRootCause()
			.isInstanceOf(RedisCommandExecutionException.class)
			.withMessageContaining("WRONGTYPE");
		assertThat(this.channel.call(BinaryCommands.get(bytes("k")), "get", "k")).asString(StandardCharsets.UTF_8)
			.isEqualTo("plain");
	}

	@Test
	void readsAfterACommandSentBeforeThemSeeWhatItWrote() throws Exception {
		for (int i = 0; i < 20; i++) {
			this.channel.call(BinaryCommands.set(bytes("k"), bytes("old"), 0), "set", "k");
			this.channel.submit(BinaryCommands.set(bytes("k"), bytes("new"), 0));
			ValueReads reads = ValueReads.of(1, 1);
			reads.get(bytes("k"), 0);
			assertThat(reads.send(this.channel).get(10, TimeUnit.SECONDS).get(0)).asString(StandardCharsets.UTF_8)
				.isEqualTo("new");
		}
	}

	@Test
	void aCommandSentAfterReadsIsNotSeenByThem() throws Exception {
		for (int i = 0; i < 20; i++) {
			this.channel.call(BinaryCommands.set(bytes("k"), bytes("old"), 0), "set", "k");
			ValueReads reads = ValueReads.of(1, 1);
			reads.get(bytes("k"), 0);
			CompletableFuture<List<byte[]>> values = reads.send(this.channel);
			this.channel.submit(BinaryCommands.set(bytes("k"), bytes("new"), 0));
			assertThat(values.get(10, TimeUnit.SECONDS).get(0)).asString(StandardCharsets.UTF_8).isEqualTo("old");
		}
	}

	@Test
	void noReadsAnswerAtOnceWithoutACommand() throws Exception {
		clients.dispatched().clear();
		assertThat(ValueReads.of(0, 2).send(this.channel).get(1, TimeUnit.SECONDS)).containsExactly(null, null);
		assertThat(clients.dispatched()).isEmpty();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
