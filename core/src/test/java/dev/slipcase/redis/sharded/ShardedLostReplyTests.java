package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.Wait;
import dev.slipcase.redis.test.fault.FaultProxy;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Sharded writes through a {@link FaultProxy} while another client writes the same key and is
 * acknowledged. A write whose reply is lost on the wire (the proxy holds the server's replies, then
 * cuts the connection) must fail with an unknown outcome after Lettuce reconnects and replays what
 * got no reply, and never be written again over the newer value. A write whose caller gave up
 * while the connection was down must never be written at all. Each on a client of default
 * resources and on one of {@link WriteCoalescing}'s, whose blocks go out as one command each.
 */
@ParameterizedClass(name = "[{index}] {0}")
@ValueSource(booleans = { false, true })
class ShardedLostReplyTests {

	/** Whether the client writing through the proxy has WriteCoalescing's resources. */
	@Parameter
	boolean slipcaseResources;

	private @Nullable ClientResources resources;

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RedisServer redis;

	private FaultProxy proxy;

	private RedisClient proxied;

	private RedisClient direct;

	private ShardedTemplates proxiedTemplates;

	private ShardedTemplates directTemplates;

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
		RedisURI uri = RedisURI.builder(RedisURI.create(this.proxy.endpoint().uri()))
			.withTimeout(Duration.ofSeconds(2))
			.build();
		this.resources = this.slipcaseResources ? WriteCoalescing.configure(ClientResources.builder()).build() : null;
		this.proxied = (this.resources != null) ? RedisClient.create(this.resources, uri) : RedisClient.create(uri);
		// the template's own timeout gives up on a call, not Lettuce's per-command one, which would
		// cancel each command of a block by itself
		this.proxied.setOptions(ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
			.build());
		this.direct = RedisClient.create(redis.endpoint().uri());
		this.proxiedTemplates = ShardedTemplates.create(this.proxied);
		this.directTemplates = ShardedTemplates.create(this.direct);
	}

	@AfterEach
	void close() {
		this.proxiedTemplates.close();
		this.directTemplates.close();
		this.proxied.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		if (this.resources != null) {
			this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
		this.direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.proxy.close();
	}

	@RepeatedTest(3)
	void aBlockWhoseExecReplyWasLostFailsAsUnknownAndIsNotWrittenAgainOverANewerValue() throws Exception {
		ShardedNamespace namespace = ShardedNamespace.builder("lost").keyPrefix("l:").build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		writer.set("l:1", "warm-up");

		this.proxy.holdReplies();
		CompletableFuture<Void> lost = CompletableFuture.runAsync(() -> writer.set("l:1", "old"));
		awaitValue(other, "old");
		other.set("l:1", "newer");
		this.proxy.cutAndHeal();

		Throwable failure = catchThrowable(() -> lost.get(30, TimeUnit.SECONDS));
		assertThat(failure).as("the write whose reply was lost").isNotNull();
		assertThat(failure).hasRootCauseInstanceOf(UnacknowledgedWriteException.class);
		assertThat(failure.getCause()).isInstanceOf(DataAccessException.class);
		Thread.sleep(200);
		assertThat(other.get("l:1")).as("the newer, acknowledged value").isEqualTo("newer");
		assertThat(writer.get("l:1")).isEqualTo("newer");
	}

	@RepeatedTest(3)
	void anIncrementWhoseConnectionWasResetUnderItFailsAsUnknownAndIsAppliedOnce() throws Exception {
		ShardedNamespace namespace = ShardedNamespace.builder("reset").keyPrefix("l:").build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		writer.set("l:1", "1");

		this.proxy.holdReplies();
		CompletableFuture<Long> lost = CompletableFuture.supplyAsync(() -> writer.incrBy("l:1", 1));
		awaitValue(other, "2");
		// Lettuce fails the oldest command awaiting a reply with the reset itself
		this.proxy.resetAndHeal();

		Throwable failure = catchThrowable(() -> lost.get(30, TimeUnit.SECONDS));
		assertThat(failure).as("the increment whose reply was lost").isNotNull();
		assertThat(failure.getCause()).isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("may or may not have been applied");
		Thread.sleep(200);
		assertThat(other.get("l:1")).as("applied once").isEqualTo("2");
	}

	@RepeatedTest(3)
	void aReadThroughDeleteCutHalfwayNeverBringsBackThePlainKeysOlderValue() throws Exception {
		ShardedNamespace namespace = ShardedNamespace.builder("lost-rt").keyPrefix("rt:").readThrough(true).build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		redis.command("SET", "rt:1", "plain");
		writer.set("rt:1", "newer");
		// the scripts are loaded: the held call's first step is one command
		writer.delete("rt:absent");

		this.proxy.holdReplies();
		CompletableFuture<Boolean> lost = CompletableFuture.supplyAsync(() -> writer.delete("rt:1"));
		Wait.until(TIMEOUT, "the held delete's first step reached the server",
				() -> !Long.valueOf(1).equals(redis.command("EXISTS", "rt:1")) || !"newer".equals(other.get("rt:1")));
		this.proxy.cutAndHeal();

		assertThat(catchThrowable(() -> lost.get(30, TimeUnit.SECONDS))).as("the delete whose reply was lost")
			.isNotNull();
		// deleted or not, but never the plain key's value, which the acknowledged set replaced
		assertThat(other.get("rt:1")).isIn("newer", null);
	}

	@RepeatedTest(3)
	void aReadThroughExpireRacingADeleteNeverCopiesThePlainValueBack() throws Exception {
		ShardedNamespace namespace = ShardedNamespace.builder("race-rt").keyPrefix("rr:").readThrough(true).build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		// the scripts are loaded, so that the expire below sends each of its commands once
		redis.command("SET", "rr:warm", "plain");
		writer.expire("rr:warm", Duration.ofMinutes(1));
		redis.command("SET", "rr:2", "plain");
		long getsBefore = redis.calls("get");

		// every chunk takes 300 ms each way: the expire reads the plain value (GET), then its TTL,
		// then copies the value, each a round trip of its own; the delete lands between the GET and the copy
		this.proxy.latency(Duration.ofMillis(300));
		CompletableFuture<Boolean> expire = CompletableFuture
			.supplyAsync(() -> writer.expire("rr:2", Duration.ofMinutes(1)));
		Wait.until(TIMEOUT, "the expire read the plain key", () -> redis.calls("get") != getsBefore);
		assertThat(other.delete("rr:2")).as("the delete, acknowledged").isTrue();
		expire.get(30, TimeUnit.SECONDS);
		this.proxy.latency(Duration.ZERO);

		assertThat(other.get("rr:2")).as("the key deleted after the expire read it").isNull();
		assertThat(redis.command("EXISTS", "rr:2")).isEqualTo(0L);
	}

	@RepeatedTest(3)
	void anExpireOfAnOverflowValueWhoseReplyWasLostIsNotAppliedAgainToANewerValue() throws Exception {
		ShardedNamespace namespace = ShardedNamespace.builder("lost-ttl").keyPrefix("t:").build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		String large = "x".repeat(2_000);
		writer.set("t:1", large);
		// the script is loaded: the held call is its EVALSHA alone, not EVALSHA, NOSCRIPT and EVAL
		writer.expire("t:absent", Duration.ofSeconds(2));

		this.proxy.holdReplies();
		CompletableFuture<Boolean> lost = CompletableFuture.supplyAsync(() -> writer.expire("t:1", Duration.ofSeconds(2)));
		Wait.until(TIMEOUT, "the held expire reached the server", () -> other.ttlMillis("t:1") >= 0);
		other.set("t:1", large + "newer");
		this.proxy.cutAndHeal();

		Throwable failure = catchThrowable(() -> lost.get(30, TimeUnit.SECONDS));
		assertThat(failure).hasRootCauseInstanceOf(UnacknowledgedWriteException.class);
		assertThat(other.ttlMillis("t:1")).as("the newer value's TTL").isEqualTo(-1);
		assertThat(other.get("t:1")).isEqualTo(large + "newer");
	}

	@RepeatedTest(3)
	void aBlockWhoseCallerTimedOutWhileTheConnectionWasDownIsNeverWritten() throws Exception {
		givenUpWhileDisconnected("timed-out", (writer) -> assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> writer.set("g:1", "given up")));
	}

	@RepeatedTest(3)
	void aBlockWhoseCallerWasInterruptedWhileTheConnectionWasDownIsNeverWritten() throws Exception {
		givenUpWhileDisconnected("interrupted", (writer) -> {
			Thread caller = new Thread(() -> {
				try {
					writer.set("g:1", "given up");
				}
				catch (DataAccessException expected) {
					// interrupted while waiting
				}
			});
			caller.start();
			try {
				Thread.sleep(300);
				caller.interrupt();
				caller.join(10_000);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
			assertThat(caller.isAlive()).isFalse();
		});
	}

	/**
	 * While the proxy refuses connections, the writer's caller gives up on a write; another client
	 * then writes the key; once the writer has reconnected, the given-up value must not be there,
	 * and no connection may be left inside {@code MULTI}.
	 */
	private void givenUpWhileDisconnected(String name, Consumer<ShardedTemplate<String>> giveUp) {
		ShardedNamespace namespace = ShardedNamespace.builder(name).keyPrefix("g:").build();
		ShardedTemplate<String> writer = this.proxiedTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		ShardedTemplate<String> other = this.directTemplates.template(namespace, ShardedTemplateContract.STRINGS);
		writer.set("g:1", "warm-up");

		this.proxy.refuseConnections();
		this.proxy.cut();
		giveUp.accept(writer);
		other.set("g:1", "newer");
		this.proxy.heal();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (true) {
			try {
				writer.set("g:2", "after");
				break;
			}
			catch (DataAccessException reconnecting) {
				assertThat(System.nanoTime()).as("the writer reconnects").isLessThan(deadline);
			}
		}
		assertThat(other.get("g:1")).as("the newer, acknowledged value").isEqualTo("newer");
		assertThat(other.get("g:2")).isEqualTo("after");
		assertThat((String) redis.command("CLIENT", "LIST")).as("no connection left inside MULTI")
			.doesNotContainPattern("flags=\\w*x");
	}

	private static void awaitValue(ShardedTemplate<String> template, String value) throws InterruptedException {
		Wait.until(TIMEOUT, "the held write reached the server", () -> value.equals(template.get("l:1")));
	}

}
