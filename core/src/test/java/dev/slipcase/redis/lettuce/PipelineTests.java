package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Pipeline} and {@link ConnectionHolder} against a real Redis: commands written
 * together, a script the server has not cached, cancellation before sending, and a connection
 * that cannot be opened.
 */
@ExtendWith(RedisExtension.class)
class PipelineTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static RedisServer redis;

	private static RedisClient client;

	private static ConnectionHolder<byte[], byte[]> connections;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		connections = ConnectionHolder.opening(
				Connectors.of(client, RedisURI.create(server.endpoint().uri()), ByteArrayCodec.INSTANCE),
				ByteArrayCodec.INSTANCE, false, 0, WAIT);
	}

	@AfterAll
	static void shutdown() {
		connections.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@Test
	void commandsSentTogetherEachCompleteWithTheirReply() {
		Pipeline<byte[], byte[]> pipeline = new Pipeline<>(connections, 0);
		CompletableFuture<String> set = pipeline.submit(BinaryCommands.setIfAbsent(bytes("k"), bytes("v")));
		CompletableFuture<byte[]> get = pipeline.submit(BinaryCommands.get(bytes("k")));
		CompletableFuture<Long> missing = pipeline.submit(BinaryCommands.exists(bytes("missing")));
		assertThat(pipeline.size()).isEqualTo(3);
		pipeline.send();
		CommandChannel.awaitAll(List.of(set, get, missing), WAIT, "test", null);
		assertThat(set.join()).isEqualTo("OK");
		assertThat(get.join()).asString(StandardCharsets.UTF_8).isEqualTo("v");
		assertThat(missing.join()).isZero();
	}

	@Test
	void aScriptTheServerHasNotCachedRunsWithEvalAndIsCachedAfterwards() {
		LuaScript script = LuaScript.of("-- " + System.nanoTime() + "\nreturn redis.call('SET', KEYS[1], ARGV[1])");
		assertThat(redis.command("SCRIPT", "EXISTS", script.sha())).isEqualTo(List.of(0L));
		Pipeline<byte[], byte[]> pipeline = new Pipeline<>(connections, 0);
		CompletableFuture<String> reply = pipeline.script(script, () -> new StatusOutput<>(ByteArrayCodec.INSTANCE),
				List.of(bytes("k")), (argv) -> argv.addValue(bytes("v")));
		pipeline.send();
		assertThat(CommandChannel.await(reply, WAIT, "test", null)).isEqualTo("OK");
		assertThat(redis.command("GET", "k")).isEqualTo("v");
		assertThat(redis.command("SCRIPT", "EXISTS", script.sha())).isEqualTo(List.of(1L));
	}

	@Test
	void aScriptCallCancelledBeforeSendingIsNeverRun() {
		LuaScript script = LuaScript.of("return redis.call('SET', KEYS[1], 'ran')");
		Pipeline<byte[], byte[]> pipeline = new Pipeline<>(connections, 0);
		CompletableFuture<String> reply = pipeline.script(script, () -> new StatusOutput<>(ByteArrayCodec.INSTANCE),
				List.of(bytes("k")), (argv) -> {
				});
		CompletableFuture<byte[]> after = pipeline.submit(BinaryCommands.get(bytes("k")));
		reply.cancel(false);
		pipeline.send();
		assertThat(CommandChannel.await(after, WAIT, "test", null)).isNull();
		assertThat(reply).isCancelled();
		assertThat(redis.command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void aConnectionThatCannotBeOpenedFailsEveryCommand() {
		RedisURI nowhere = RedisURI.builder().withHost("127.0.0.1").withPort(1).withTimeout(Duration.ofSeconds(2)).build();
		try (ConnectionHolder<byte[], byte[]> unreachable = ConnectionHolder.opening(
				Connectors.of(client, nowhere, ByteArrayCodec.INSTANCE), ByteArrayCodec.INSTANCE, false, 0, WAIT)) {
			Pipeline<byte[], byte[]> pipeline = new Pipeline<>(unreachable, 0);
			CompletableFuture<byte[]> first = pipeline.submit(BinaryCommands.get(bytes("a")));
			CompletableFuture<Long> second = pipeline.submit(BinaryCommands.exists(bytes("b")));
			pipeline.send();
			assertThat(first).failsWithin(WAIT).withThrowableThat().havingCause().isInstanceOf(RedisConnectionException.class);
			assertThat(second).failsWithin(WAIT).withThrowableThat().havingCause().isInstanceOf(RedisConnectionException.class);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
