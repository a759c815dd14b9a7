package dev.slipcase.redis.template;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.leak.LeakReports;
import dev.slipcase.redis.testformat.PickyFormat;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Faults against a private real Redis: the connection killed mid-batch (with and without Lettuce's
 * auto-reconnect), serialization failures that must not cost the shared connection, a command
 * that times out, and a lease that is never closed. Each on a client of default resources and on
 * one of {@link WriteCoalescing}'s, whose pipelined commands go out as one command per batch.
 */
@ParameterizedClass(name = "[{index}] {0}")
@ValueSource(booleans = { false, true })
class ValueTemplateFaultTests {

	/** Whether the client has WriteCoalescing's resources. */
	@Parameter
	boolean slipcaseResources;

	private @Nullable ClientResources resources;

	private static final int COMMANDS = 2_000;

	private static RedisServer redis;

	private RedisClient client;

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
		redis.flushAll();
		this.resources = this.slipcaseResources ? WriteCoalescing.configure(ClientResources.builder()).build() : null;
		this.client = (this.resources != null) ? RedisClient.create(this.resources) : RedisClient.create();
	}

	@AfterEach
	void shutdown() {
		redis.command("CLIENT", "UNPAUSE");
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		if (this.resources != null) {
			this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		}
	}

	@Test
	void killedMidBatchEveryWriteFailsAsUnknownAndNoSuccessIsFalse() throws Exception {
		try (ValueTemplate<String> template = template()) {
			List<CompletableFuture<?>> futures = killMidBatch(template);
			for (int i = 0; i < COMMANDS; i++) {
				CompletableFuture<?> future = futures.get(i);
				try {
					future.get(30, TimeUnit.SECONDS);
					assertThat(redis.command("GET", "k" + i)).as("command %d reported done", i).isEqualTo(value(i));
				}
				catch (ExecutionException ex) {
					// every SET had been written when the kill came: none is written again after the
					// reconnect, and the one at the head of Lettuce's stack, which a TCP reset fails
					// with that I/O error (CommandHandler.exceptionCaught), is as unknown as the rest
					assertThat(ex.getCause()).as("command %d", i).isInstanceOf(UnacknowledgedWriteException.class);
				}
			}
		}
	}

	@Test
	void killedMidBatchATemplateThatResendsRetriesEveryWriteAndNoSuccessIsFalse() throws Exception {
		try (ValueTemplate<String> template = template().withUnacknowledgedWrites(UnacknowledgedWrites.RESEND)) {
			List<CompletableFuture<?>> futures = killMidBatch(template);
			int succeeded = 0;
			for (int i = 0; i < COMMANDS; i++) {
				CompletableFuture<?> future = futures.get(i);
				try {
					future.get(30, TimeUnit.SECONDS);
					succeeded++;
					assertThat(redis.command("GET", "k" + i)).as("command %d reported done", i).isEqualTo(value(i));
				}
				catch (ExecutionException ex) {
					// when the kill arrives as a TCP reset, Lettuce fails the command at the head of
					// its stack with that I/O error (CommandHandler.exceptionCaught) and retries the rest
					assertThat(ex.getCause()).as("command %d", i).isInstanceOf(IOException.class);
				}
			}
			assertThat(succeeded).as("retried after the reconnect").isGreaterThanOrEqualTo(COMMANDS - 1);
		}
	}

	@Test
	void killedMidBatchWithoutReconnectEveryPendingCommandFailsAndTheTemplateRecovers() throws Exception {
		this.client.setOptions(ClientOptions.builder().autoReconnect(false).build());
		try (ValueTemplate<String> template = template()) {
			List<CompletableFuture<?>> futures = killMidBatch(template);
			for (CompletableFuture<?> future : futures) {
				assertThat(future).failsWithin(Duration.ofSeconds(30));
			}
			assertThat(redis.command("DBSIZE")).isEqualTo(0L);
			template.set("after", "recovered");
			assertThat(template.get("after")).isEqualTo("recovered");
		}
	}

	@Test
	void aValueThatCannotBeSerializedDoesNotCostTheConnection() {
		try (ValueTemplate<String> template = template()) {
			template.set("k", "v");
			long connectionsBefore = connectionsReceived();
			for (int i = 0; i < 10; i++) {
				assertThatExceptionOfType(SerializationException.class)
					.isThrownBy(() -> template.set("k", "unwritable"));
				template.set("k" + i, "v");
			}
			// the only new connection is the one that asks
			assertThat(connectionsReceived()).isEqualTo(connectionsBefore + 1);
		}
	}

	@Test
	void aCommandThatTimesOutIsCancelledAndReleasesItsBufferAtOnce() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		RedisURI uri = RedisURI.builder(RedisURI.create(redis.endpoint().uri())).withTimeout(Duration.ofMillis(300)).build();
		try (ValueTemplate<String> template = ValueTemplate.create(this.client, uri, PickyFormat.INSTANCE)
			.withAllocator(allocator)) {
			template.set("warm-up", "connects");
			allocator.forget();
			redis.command("CLIENT", "PAUSE", "10000", "WRITE");
			assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> template.set("k", "v".repeat(1000)))
				.withMessageContaining("'k'")
				.withMessageContaining("cancelled");
			// Redis still holds the SET: only a cancelled command has released its value already
			assertThat(allocator.buffers()).singleElement().satisfies((buffer) -> assertThat(buffer.refCnt()).isZero());
			redis.command("CLIENT", "UNPAUSE");
			template.set("after", "carries on");
			assertThat(template.get("after")).isEqualTo("carries on");
		}
	}

	@Test
	void aLeaseNeverClosedIsReportedByTheLeakDetector() {
		try (ValueTemplate<String> template = template()) {
			template.set("k", "x".repeat(1000));
			LeakReports.assertNoLeaks("before the lease");
			readAndDropALease(template);
			List<String> reports = List.of();
			for (int round = 0; round < 50 && reports.isEmpty(); round++) {
				// more traffic, so that nothing on the connection still refers to the last reply
				template.get("k");
				LeakReports.collect();
				reports = LeakReports.drain();
			}
			assertThat(reports).hasSize(1)
				.allSatisfy((report) -> assertThat(report).contains("release() was not called")
					.contains("LeaseOutput.set"));
		}
	}

	private static void readAndDropALease(ValueTemplate<String> template) {
		ValueLease lease = template.lease("k");
		assertThat(lease).isNotNull();
		assertThat(lease.size()).isEqualTo(1000);
	}

	private ValueTemplate<String> template() {
		return ValueTemplate.create(this.client, RedisURI.create(redis.endpoint().uri()), PickyFormat.INSTANCE);
	}

	/**
	 * Pauses writes on the server, sends a batch of SETs and leases that pile up there, kills the
	 * template's connection with the commands pending, then lets the server go on.
	 */
	private static List<CompletableFuture<?>> killMidBatch(ValueTemplate<String> template) throws Exception {
		template.set("warm-up", "connects");
		template.delete("warm-up");
		long inputBefore = Long.parseLong(redis.info("stats", "total_net_input_bytes"));
		redis.command("CLIENT", "PAUSE", "20000", "WRITE");
		ValueBatch<String> batch = template.batch();
		List<CompletableFuture<?>> sets = new ArrayList<>();
		List<CompletableFuture<ValueLease>> leases = new ArrayList<>();
		for (int i = 0; i < COMMANDS; i++) {
			sets.add(batch.set("k" + i, value(i)));
			leases.add(batch.lease("k" + i));
		}
		batch.execute();
		long sent = (long) COMMANDS * 1000;
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (Long.parseLong(redis.info("stats", "total_net_input_bytes")) - inputBefore < sent
				&& System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		assertThat(sets).noneMatch(CompletableFuture::isDone);
		redis.command("CLIENT", "KILL", "TYPE", "normal");
		redis.command("CLIENT", "UNPAUSE");
		for (CompletableFuture<ValueLease> lease : leases) {
			lease.handle((held, ex) -> {
				if (held != null) {
					held.close();
				}
				return null;
			}).get(30, TimeUnit.SECONDS);
		}
		return sets;
	}

	private static String value(int i) {
		return String.format("%-1000d", i);
	}

	private static long connectionsReceived() {
		return Long.parseLong(redis.info("stats", "total_connections_received"));
	}

}
