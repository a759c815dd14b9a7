package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link CommandChannel}'s static waits and {@link RedisFailures}: one exception contract
 * for every sync path, and a command that does not answer in time is cancelled. Futures stand in for commands here;
 * the templates' tests show the same against a real Redis.
 */
class CommandChannelAwaitTests {

	private static final Duration SHORT = Duration.ofMillis(50);

	@Test
	void aReplyIsReturned() {
		assertThat(CommandChannel.await(CompletableFuture.completedFuture("v"), SHORT, "get", "k")).isEqualTo("v");
	}

	@Test
	void aCommandThatDoesNotAnswerInTimeIsCancelled() {
		CompletableFuture<String> command = new CompletableFuture<>();
		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> CommandChannel.await(command, SHORT, "get", "k"))
			.withMessageContaining("get 'k'")
			.withMessageContaining("PT0.05S")
			.withMessageContaining("cancelled");
		assertThat(command).isCancelled();
	}

	@Test
	void anInterruptedCallerCancelsTheCommandAndKeepsItsInterrupt() {
		CompletableFuture<String> command = new CompletableFuture<>();
		Thread.currentThread().interrupt();
		try {
			assertThatExceptionOfType(RedisSystemException.class)
				.isThrownBy(() -> CommandChannel.await(command, Duration.ofSeconds(10), "get", "k"))
				.withMessageContaining("Interrupted");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(command).isCancelled();
	}

	@Test
	void anErrorReplyIsARedisSystemExceptionSayingWhatAndWhy() {
		assertThatExceptionOfType(RedisSystemException.class)
			.isThrownBy(() -> CommandChannel.await(failed(new RedisCommandExecutionException("WRONGTYPE Operation against a key")),
					SHORT, "increment", "counter"))
			.withMessage("Redis failed to increment 'counter': WRONGTYPE Operation against a key")
			.withCauseInstanceOf(RedisCommandExecutionException.class);
	}

	@Test
	void lettuceFailuresBecomeTheDataAccessExceptionsSpringDataRedisUses() {
		assertThat(RedisFailures.translate(new RedisConnectionException("refused"), "get"))
			.isInstanceOf(RedisConnectionFailureException.class)
			.hasMessageContaining("refused");
		assertThat(RedisFailures.translate(new IOException("Connection reset by peer"), "get"))
			.isInstanceOf(RedisConnectionFailureException.class)
			.hasMessageContaining("Connection reset");
		assertThat(RedisFailures.translate(new RedisCommandTimeoutException("timed out"), "get"))
			.isInstanceOf(QueryTimeoutException.class);
		assertThat(RedisFailures.translate(new java.util.concurrent.CancellationException(), "get"))
			.isInstanceOf(RedisSystemException.class)
			.hasMessageContaining("cancelled");
	}

	@Test
	void serializationAndOwnFailuresStayAsTheyAre() {
		SerializationException unreadable = new SerializationException("cannot decode");
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> CommandChannel.await(failed(unreadable), SHORT, "get", "k"))
			.isSameAs(unreadable);
		assertThatIllegalStateException()
			.isThrownBy(() -> CommandChannel.await(failed(new IllegalStateException("The template is closed")), SHORT, "get", "k"))
			.withMessage("The template is closed");
	}

	@Test
	void allWaitsForEveryCommandAndThrowsTheFirstFailure() {
		CompletableFuture<String> late = new CompletableFuture<>();
		CompletableFuture.delayedExecutor(20, java.util.concurrent.TimeUnit.MILLISECONDS).execute(() -> late.complete("x"));
		List<CompletableFuture<String>> replies = List.of(failed(new RedisCommandExecutionException("ERR first")),
				failed(new RedisCommandExecutionException("ERR second")), late);
		assertThatExceptionOfType(RedisSystemException.class)
			.isThrownBy(() -> CommandChannel.awaitAll(replies, Duration.ofSeconds(10), "write 3 keys", null))
			.withMessage("Redis failed to write 3 keys: ERR first");
		assertThat(late).isCompletedWithValue("x");
	}

	@Test
	void allCancelsEveryCommandStillPendingWhenTheTimeoutPasses() {
		CompletableFuture<String> done = CompletableFuture.completedFuture("x");
		CompletableFuture<String> pending = new CompletableFuture<>();
		CompletableFuture<String> alsoPending = new CompletableFuture<>();
		assertThatExceptionOfType(QueryTimeoutException.class)
			.isThrownBy(() -> CommandChannel.awaitAll(List.of(done, pending, alsoPending), SHORT, "read 3 keys", null));
		assertThat(pending).isCancelled();
		assertThat(alsoPending).isCancelled();
		assertThat(done).isCompletedWithValue("x");
	}

	private static <T> CompletableFuture<T> failed(Throwable failure) {
		return CompletableFuture.failedFuture(failure);
	}

}
