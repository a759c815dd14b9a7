package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.fault.FaultProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A sharded write whose reply is lost on the wire (a {@link FaultProxy} holds the server's replies,
 * then cuts the connection) while another client writes the same key and is acknowledged: after
 * Lettuce reconnects and replays what got no reply, the first write must fail with an unknown
 * outcome and never be written again over the newer value.
 */
class ShardedLostReplyTests {

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
		this.proxied = RedisClient.create(RedisURI.builder(RedisURI.create(this.proxy.endpoint().uri()))
			.withTimeout(Duration.ofSeconds(20))
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

	private static void awaitValue(ShardedTemplate<String> template, String value) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!value.equals(template.get("l:1"))) {
			assertThat(System.nanoTime()).as("the held write reached the server").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
