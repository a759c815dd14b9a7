package dev.slipcase.redis.template;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.fault.FaultProxy;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link ValueTemplate} writes whose reply is lost on the wire: a {@link FaultProxy} holds the
 * server's replies until the write is applied, then cuts the connection. Lettuce writes what got no
 * reply again once it has reconnected; a write must not be applied twice, nor land over a value
 * another client wrote and was acknowledged for in between, unless the template asks for Lettuce's
 * at-least-once ({@link UnacknowledgedWrites#RESEND}).
 */
class ValueTemplateLostReplyTests {

	private static RedisServer redis;

	private FaultProxy proxy;

	private RedisClient client;

	private ValueTemplate<String> template;

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
		this.proxy = FaultProxy.start(redis.endpoint());
		this.client = RedisClient.create();
		this.template = ValueTemplate.create(this.client,
				RedisURI.builder(RedisURI.create(this.proxy.endpoint().uri())).withTimeout(Duration.ofSeconds(20)).build(),
				Utf8TestFormat.INSTANCE);
	}

	@AfterEach
	void close() {
		this.template.close();
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.proxy.close();
	}

	@RepeatedTest(3)
	void anIncrementWhoseReplyWasLostFailsAsUnknownAndIsAppliedOnce() throws Exception {
		this.template.set("counter", "1");
		Throwable failure = loseReplyOf((template) -> template.incrementBy("counter", 1), "counter", "2");
		assertThat(failure).hasRootCauseInstanceOf(UnacknowledgedWriteException.class);
		assertThat(redis.command("GET", "counter")).isEqualTo("2");
	}

	@RepeatedTest(3)
	void anIncrementWhoseConnectionWasResetUnderItFailsAsUnknownAndIsAppliedOnce() throws Exception {
		this.template.set("reset", "1");
		this.proxy.holdReplies();
		CompletableFuture<Long> call = CompletableFuture.supplyAsync(() -> this.template.incrementBy("reset", 1));
		awaitApplied("reset", "2");
		// Lettuce fails the oldest command awaiting a reply with the reset itself
		this.proxy.resetAndHeal();
		Throwable failure = catchThrowable(() -> call.get(30, TimeUnit.SECONDS));
		assertThat(failure).as("the increment whose reply was lost").isNotNull();
		assertThat(failure.getCause()).isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("INCRBY")
			.hasMessageContaining("may or may not have been applied")
			.hasCauseInstanceOf(IOException.class);
		assertThat(redis.command("GET", "reset")).isEqualTo("2");
	}

	@RepeatedTest(3)
	void aSetWhoseReplyWasLostIsNotWrittenAgainOverANewerValue() throws Exception {
		this.template.set("register", "warm-up");
		Throwable failure = loseReplyOf((template) -> {
			template.set("register", "old");
			return null;
		}, "register", "old", () -> redis.command("SET", "register", "newer"));
		assertThat(failure).hasRootCauseInstanceOf(UnacknowledgedWriteException.class);
		Thread.sleep(200);
		assertThat(redis.command("GET", "register")).isEqualTo("newer");
	}

	@Test
	void aTemplateThatResendsAppliesALostIncrementTwice() throws Exception {
		this.template = this.template.withUnacknowledgedWrites(UnacknowledgedWrites.RESEND);
		this.template.set("resent", "1");
		Throwable failure = loseReplyOf((template) -> template.incrementBy("resent", 1), "resent", "2");
		assertThat(failure).isNull();
		assertThat(redis.command("GET", "resent")).as("Lettuce's at-least-once, as documented").isEqualTo("3");
	}

	@Test
	void aReadWhoseReplyWasLostIsReadAgain() throws Exception {
		this.template.set("read", "value");
		this.proxy.holdReplies();
		CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> this.template.get("read"));
		Thread.sleep(200);
		this.proxy.cutAndHeal();
		assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo("value");
	}

	private Throwable loseReplyOf(Function<ValueTemplate<String>, Object> write, String key, String applied)
			throws Exception {
		return loseReplyOf(write, key, applied, () -> null);
	}

	/**
	 * Runs {@code write} with the server's replies held; once Redis holds {@code applied} at
	 * {@code key}, runs {@code meanwhile}, then cuts the connection and heals the proxy.
	 * @return how the write failed after the reconnect, or {@code null} when it returned
	 */
	private Throwable loseReplyOf(Function<ValueTemplate<String>, Object> write, String key, String applied,
			Supplier<Object> meanwhile) throws Exception {
		this.proxy.holdReplies();
		CompletableFuture<Object> call = CompletableFuture.supplyAsync(() -> write.apply(this.template));
		awaitApplied(key, applied);
		meanwhile.get();
		this.proxy.cutAndHeal();
		return catchThrowable(() -> call.get(30, TimeUnit.SECONDS));
	}

	/** Waits until Redis holds {@code applied} at {@code key}: a held write reached the server. */
	private static void awaitApplied(String key, String applied) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!applied.equals(redis.command("GET", key))) {
			assertThat(System.nanoTime()).as("the held write reached the server").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
