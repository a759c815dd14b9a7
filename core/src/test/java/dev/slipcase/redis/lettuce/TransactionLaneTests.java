package dev.slipcase.redis.lettuce;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
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

/**
 * Tests {@link TransactionLane} against a real server: what a block's future and its commands'
 * futures say, and that blocks dispatched from many threads while others are given up stay whole;
 * each on a client of default resources (a block goes out as {@code MULTI}, its commands and
 * {@code EXEC}) and on one of {@link WriteCoalescing}'s (a block goes out as one command).
 */
@ExtendWith(RedisExtension.class)
@ParameterizedClass(name = "[{index}] {0}")
@EnumSource(RecordingClients.Kind.class)
class TransactionLaneTests {

	private static final byte[] KEPT = bytes("kept");

	private static final byte[] GIVEN_UP = bytes("given-up");

	private static RedisServer redis;

	private static RecordingClients clients;

	@Parameter
	RecordingClients.Kind kind;

	private RedisClient client;

	private TransactionLane<byte[], byte[]> lane;

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
	void openLane() {
		redis.flushAll();
		this.client = clients.client(this.kind);
		this.lane = new TransactionLane<>(ConnectionHolder.opening(
				Connectors.of(this.client, RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE),
				ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(2)));
	}

	@AfterEach
	void closeLane() {
		this.lane.close();
	}

	@Test
	void aBlockAnswersWithTheRepliesOfItsCommandsAndEachCommandWithItsOwn() throws Exception {
		SlipcaseCommand<byte[], byte[], String> set = TransactionLane.command(CommandType.SET,
				new StatusOutput<>(ByteArrayCodec.INSTANCE), args().addKey(bytes("k")).addValue(bytes("v")));
		SlipcaseCommand<byte[], byte[], Long> increment = increment(KEPT);
		TransactionResult result = this.lane.execute(0, KEPT, List.of(set, increment)).get(10, TimeUnit.SECONDS);
		assertThat((List<Object>) result.stream().toList()).containsExactly("OK", 1L);
		assertThat(set.get(1, TimeUnit.SECONDS)).isEqualTo("OK");
		assertThat(increment.get(1, TimeUnit.SECONDS)).isEqualTo(1L);
	}

	@Test
	void aBlockIsDispatchedAsOneCommandWhereTheChannelReadsItsRepliesAsOne() throws Exception {
		this.lane.execute(0, KEPT, List.of(increment(KEPT))).get(10, TimeUnit.SECONDS); // the lane's connection is open
		clients.dispatched().clear();
		this.lane.execute(0, KEPT, List.of(increment(KEPT), increment(KEPT))).get(10, TimeUnit.SECONDS);
		assertThat(clients.dispatched()).containsExactlyElementsOf((this.kind == RecordingClients.Kind.SLIPCASE_RESOURCES)
				? List.of(BlockKeyword.BLOCK.toString())
				: List.of(BlockKeyword.MULTI.toString(), "HINCRBY", "HINCRBY", BlockKeyword.EXEC.toString()));
		assertThat(redis.command("HGET", "kept", "n")).isEqualTo("3");
	}

	@Test
	void aCommandRedisRefusesInsideABlockIsItsReplyAndItsFailure() throws Exception {
		redis.command("SET", "text", "not a number");
		SlipcaseCommand<byte[], byte[], Long> refused = increment(bytes("text"));
		SlipcaseCommand<byte[], byte[], Long> applied = increment(KEPT);
		TransactionResult result = this.lane.execute(0, KEPT, List.of(refused, applied)).get(10, TimeUnit.SECONDS);
		assertThat(result.size()).isEqualTo(2);
		assertThat((Object) result.get(0)).isInstanceOf(RedisCommandExecutionException.class);
		assertThat((Object) result.get(1)).isEqualTo(1L);
		assertThat(refused.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS))
			.isInstanceOf(RedisCommandExecutionException.class);
		assertThat(applied.get(1, TimeUnit.SECONDS)).isEqualTo(1L);
	}

	@Test
	void aBlockRedisRefusesToQueueRunsNothingAndFailsWithExecAbort() throws Exception {
		SlipcaseCommand<byte[], byte[], Long> applicable = increment(KEPT);
		// HINCRBY with a field and no increment: refused when queued
		SlipcaseCommand<byte[], byte[], Long> malformed = TransactionLane.command(CommandType.HINCRBY,
				new IntegerOutput<>(ByteArrayCodec.INSTANCE), args().addKey(KEPT).add(bytes("field")));
		CompletableFuture<TransactionResult> result = this.lane.execute(0, KEPT, List.of(applicable, malformed));
		Throwable failure = RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS));
		assertThat(RedisFailures.isBlockNotApplied(failure)).as("%s", failure).isTrue();
		assertThat(applicable.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS)).isNotNull();
		assertThat(malformed.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS)).isNotNull();
		assertThat(redis.command("HGET", "kept", "n")).isNull();
	}

	@Test
	void aBlockOneOfWhoseCommandsWasNotWrittenFailsAsUnknownAndEveryCommandEnds() throws Exception {
		SlipcaseCommand<byte[], byte[], Long> first = increment(KEPT);
		SlipcaseCommand<byte[], byte[], Long> cancelled = increment(KEPT);
		SlipcaseCommand<byte[], byte[], Long> last = increment(KEPT);
		cancelled.cancel(false); // done: Lettuce writes no command that is done
		CompletableFuture<TransactionResult> result = this.lane.execute(0, KEPT, List.of(first, cancelled, last));
		assertThat(RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS)))
			.isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("2 replies to a block of 3");
		assertThat(first.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS)).isInstanceOf(UnacknowledgedWriteException.class);
		assertThat(last.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS)).isInstanceOf(UnacknowledgedWriteException.class);
		// what the block did is what "unknown" warns of: the two written ran
		assertThat(redis.command("HGET", "kept", "n")).isEqualTo("2");
	}

	@Test
	void aBlockWhoseMultiIsRefusedFailsAsUnknown() throws Exception {
		redis.command("ACL", "SETUSER", "no-multi", "on", ">secret", "~*", "+@all", "-multi");
		RedisURI uri = RedisURI.create(redis.endpoint().uri());
		uri.setAuthentication("no-multi", "secret");
		TransactionLane<byte[], byte[]> refusing = new TransactionLane<>(ConnectionHolder.opening(
				Connectors.of(this.client, uri, ByteArrayCodec.INSTANCE), ByteArrayCodec.INSTANCE, false, 0,
				Duration.ofSeconds(2)));
		try {
			SlipcaseCommand<byte[], byte[], Long> increment = increment(KEPT);
			CompletableFuture<TransactionResult> result = refusing.execute(0, KEPT, List.of(increment));
			assertThat(RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS)))
				.isInstanceOf(UnacknowledgedWriteException.class)
				.hasMessageContaining("refused MULTI");
			assertThat(increment.handle((ok, ex) -> ex).get(1, TimeUnit.SECONDS))
				.isInstanceOf(UnacknowledgedWriteException.class);
			// it ran on its own, outside a transaction
			assertThat(redis.command("HGET", "kept", "n")).isEqualTo("1");
		}
		finally {
			refusing.close();
			redis.command("ACL", "DELUSER", "no-multi");
		}
	}

	/**
	 * Blocks from four threads, every other one given up at once. Two ways this went wrong: Lettuce
	 * kept a connection's transaction in one field, which the failure of a given-up block's
	 * {@code MULTI} cleared on the event loop while another thread dispatched its block (that block
	 * then lost its replies); and a block dispatched on the event loop (a block whose connection was
	 * still opening) was written at once, between the commands of a block another thread was queuing
	 * (Redis then saw a {@code MULTI} inside a {@code MULTI}, and replies went to the wrong commands).
	 */
	@Test
	void blocksGivenUpWhileOthersAreDispatchedLeaveTheOthersWhole() throws Exception {
		int threads = 4;
		int blocksPerThread = 3000;
		AtomicLong keptBlocks = new AtomicLong();
		ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
		List<SlipcaseCommand<byte[], byte[], Long>> givenUpCommands = new ArrayList<>();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<List<SlipcaseCommand<byte[], byte[], Long>>>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(pool.submit(() -> {
					start.await();
					List<SlipcaseCommand<byte[], byte[], Long>> givenUp = new ArrayList<>();
					List<CompletableFuture<TransactionResult>> kept = new ArrayList<>();
					for (int i = 0; i < blocksPerThread; i++) {
						if (i % 2 == 0) {
							List<SlipcaseCommand<byte[], byte[], Long>> block = List.of(increment(GIVEN_UP),
									increment(GIVEN_UP));
							this.lane.execute(0, GIVEN_UP, block).cancel(false);
							givenUp.addAll(block);
						}
						else {
							kept.add(this.lane.execute(0, KEPT, List.of(increment(KEPT), increment(KEPT))));
						}
					}
					for (CompletableFuture<TransactionResult> block : kept) {
						try {
							TransactionResult result = block.get(30, TimeUnit.SECONDS);
							if (result.size() != 2 || !(result.get(0) instanceof Long)
									|| !(result.get(1) instanceof Long)) {
								problems.add("a kept block answered " + result.stream().toList());
							}
							else {
								keptBlocks.incrementAndGet();
							}
						}
						catch (Exception ex) {
							problems.add("a kept block failed: " + ex);
						}
					}
					return givenUp;
				}));
			}
			start.countDown();
			for (Future<List<SlipcaseCommand<byte[], byte[], Long>>> thread : done) {
				givenUpCommands.addAll(thread.get(120, TimeUnit.SECONDS));
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(problems).isEmpty();
		assertThat(keptBlocks.get()).isEqualTo((long) threads * blocksPerThread / 2);
		assertThat(Long.parseLong((String) redis.command("HGET", "kept", "n"))).isEqualTo(2 * keptBlocks.get());
		// every command of a given-up block ends, with its block's reply or as given up
		for (SlipcaseCommand<byte[], byte[], Long> command : givenUpCommands) {
			Throwable failure = command.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS);
			if (failure != null) {
				assertThat(RedisFailures.unwrap(failure)).isInstanceOf(CancellationException.class);
			}
		}
	}

	private static SlipcaseCommand<byte[], byte[], Long> increment(byte[] key) {
		return TransactionLane.command(CommandType.HINCRBY, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				args().addKey(key).add(bytes("n")).add(1));
	}

	private static CommandArgs<byte[], byte[]> args() {
		return new CommandArgs<>(ByteArrayCodec.INSTANCE);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
