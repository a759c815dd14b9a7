package dev.slipcase.redis.sharded;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.RedisCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import reactor.core.Disposable;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Faults against a private real Redis: a write that Redis holds past the command timeout (with
 * {@code CLIENT PAUSE}) fails with Spring's {@code QueryTimeoutException} and its commands are
 * cancelled, seen on the connection they were written to.
 */
class ShardedTemplateFaultTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RedisServer redis;

	private RedisClient client;

	private StatefulRedisConnection<byte[], byte[]> connection;

	private final List<RedisCommand<?, ?, ?>> sent = new CopyOnWriteArrayList<>();

	private ShardedTemplate<String> template;

	private ShardedTemplate<String> readThrough;

	@BeforeAll
	static void start() {
		redis = RedisServers.start();
	}

	@AfterAll
	static void stop() {
		redis.close();
	}

	@BeforeEach
	void connect() {
		this.client = RedisClient.create(
				RedisURI.builder(RedisURI.create(redis.endpoint().uri())).withTimeout(Duration.ofMillis(300)).build());
		// the template's timeout gives up on a call and cancels its commands; Lettuce's per-command one,
		// of the same length, would race it and fail a command as timed out instead of cancelled
		this.client.setOptions(ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.build());
		this.connection = this.client.connect(ByteArrayCodec.INSTANCE);
		ShardedTemplates templates = ShardedTemplates.create(recording(this.connection, this.sent));
		this.template = templates.template(ShardedNamespace.builder("faults").keyPrefix("f:").build(),
				ShardedTemplateContract.STRINGS);
		this.readThrough = templates.template(
				ShardedNamespace.builder("faults-r").keyPrefix("r:").readThrough(true).build(),
				ShardedTemplateContract.STRINGS);
		this.template.set("f:0", "warm-up");
		this.readThrough.set("r:0", "warm-up");
		this.sent.clear();
	}

	@AfterEach
	void shutdown() {
		redis.command("CLIENT", "UNPAUSE");
		this.connection.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@Test
	void aWriteThatTimesOutIsCancelled() {
		redis.command("CLIENT", "PAUSE", "10000", "WRITE");
		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> this.template.set("f:1", "v"))
			.withMessageContaining("namespace 'faults'")
			.withMessageContaining("cancelled");
		assertThat(this.sent).isNotEmpty().allSatisfy((command) -> assertThat(command.isCancelled()).isTrue());
		redis.command("CLIENT", "UNPAUSE");
		this.template.set("f:2", "carries on");
		assertThat(this.template.get("f:2")).isEqualTo("carries on");
	}

	@Test
	void aPipelinedWriteThatTimesOutCancelsEveryCommand() {
		redis.command("CLIENT", "PAUSE", "10000", "WRITE");
		assertThatExceptionOfType(QueryTimeoutException.class)
			.isThrownBy(() -> this.template.multiSet(Map.of("f:1", "a", "f:2000", "b", "f:named", "c")));
		assertThat(this.sent).hasSize(3).allSatisfy((command) -> assertThat(command.isCancelled()).isTrue());
	}

	@Test
	void aReadThatTimesOutIsCancelled() {
		redis.command("CLIENT", "PAUSE", "1500", "ALL");
		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> this.template.get("f:0"))
			.withMessageContaining("'f:0'")
			.withMessageContaining("cancelled");
		assertThat(this.sent).singleElement().satisfies((command) -> assertThat(command.isCancelled()).isTrue());
	}

	@Test
	void aReactiveWriteThatTimesOutFailsNamingTheNamespaceAndIsCancelled() {
		redis.command("CLIENT", "PAUSE", "10000", "WRITE");
		assertThatExceptionOfType(QueryTimeoutException.class)
			.isThrownBy(() -> this.template.reactive().set("f:1", "v").block())
			.withMessageContaining("namespace 'faults'")
			.withMessageContaining("'f:1'")
			.withMessageContaining("cancelled");
		assertThat(this.sent).isNotEmpty().allSatisfy((command) -> assertThat(command.isCancelled()).isTrue());
		redis.command("CLIENT", "UNPAUSE");
		// written before it timed out, the write may still be applied; the template carries on
		this.template.reactive().set("f:2", "carries on").block();
		assertThat(this.template.reactive().get("f:2").block()).isEqualTo("carries on");
	}

	@Test
	void aCallGivenUpDuringItsFirstTurnSendsNoLaterTurn() throws Exception {
		// a read-through setIfAbsent looks for the plain key first, then writes: two turns
		redis.command("CLIENT", "PAUSE", "1000", "ALL");
		Disposable subscription = this.readThrough.reactive().setIfAbsent("r:1", "late").subscribe();
		Wait.until(TIMEOUT, "the plain key's look-up is written", () -> !this.sent.isEmpty());
		subscription.dispose();
		// a paused server takes no CLIENT UNPAUSE either: wait for the pause to end
		Thread.sleep(1_000);
		// the look-up's reply comes before the reply of this read, sent after it: a write following
		// the look-up would be written before the read
		assertThat(this.readThrough.reactive().get("r:0").block(Duration.ofSeconds(10))).isEqualTo("warm-up");
		assertThat(this.sent).first().satisfies((command) -> {
			assertThat(command.getType().toString()).isEqualTo("EXISTS");
			assertThat(command.isCancelled()).isTrue();
		});
		assertThat(this.sent).extracting((command) -> command.getType().toString())
			.containsExactly("EXISTS", "HGET");
		assertThat(this.readThrough.get("r:1")).isNull();
	}

	@Test
	void aBlockingCallThatTimesOutDuringItsFirstTurnSendsNoLaterTurn() throws Exception {
		redis.command("CLIENT", "PAUSE", "1000", "ALL");
		assertThatExceptionOfType(QueryTimeoutException.class)
			.isThrownBy(() -> this.readThrough.setIfAbsent("r:1", "late"))
			.withMessageContaining("namespace 'faults-r'");
		// once the pause ends the look-up's reply comes, then the reply of this read, sent after it:
		// a write following the look-up would be written before the read
		Thread.sleep(1_000);
		assertThat(this.readThrough.reactive().get("r:0").block(Duration.ofSeconds(10))).isEqualTo("warm-up");
		assertThat(this.sent).extracting((command) -> command.getType().toString()).containsExactly("EXISTS", "HGET");
		assertThat(this.readThrough.get("r:1")).isNull();
	}

	/** The connection, remembering every command written to it. */
	@SuppressWarnings("unchecked")
	private static StatefulRedisConnection<byte[], byte[]> recording(StatefulRedisConnection<byte[], byte[]> connection,
			List<RedisCommand<?, ?, ?>> sent) {
		return (StatefulRedisConnection<byte[], byte[]>) Proxy.newProxyInstance(
				ShardedTemplateFaultTests.class.getClassLoader(), new Class<?>[] { StatefulRedisConnection.class },
				(proxy, method, args) -> {
					if (method.getName().equals("dispatch")) {
						if (args[0] instanceof Collection<?> commands) {
							commands.forEach((command) -> sent.add((RedisCommand<?, ?, ?>) command));
						}
						else {
							sent.add((RedisCommand<?, ?, ?>) args[0]);
						}
					}
					try {
						return method.invoke(connection, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

}
