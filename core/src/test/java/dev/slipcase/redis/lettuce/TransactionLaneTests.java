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

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.PooledByteBufAllocator;
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
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests {@link TransactionLane} against a real server: what a block's future says, and that blocks
 * dispatched from many threads while others are given up stay whole; each on a client of default
 * resources (a block goes out as {@code MULTI}, its commands and {@code EXEC}) and on one of
 * {@link WriteCoalescing}'s (a block goes out as one command).
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

	private TransactionLane lane;

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
		this.lane = new TransactionLane(ConnectionHolder.opening(
				Connectors.of(this.client, RedisURI.create(redis.endpoint().uri()), ByteArrayCodec.INSTANCE),
				ByteArrayCodec.INSTANCE, false, 0, Duration.ofSeconds(2)));
	}

	@AfterEach
	void closeLane() {
		this.lane.close();
	}

	@Test
	void aBlockAnswersWithTheRepliesOfItsCommands() throws Exception {
		QueuedWrites writes = increments(KEPT, 1);
		writes.command(CommandType.SET).add(bytes("k")).add(bytes("v"));
		TransactionResult result = this.lane.execute(0, KEPT, writes).get(10, TimeUnit.SECONDS);
		assertThat((List<Object>) result.stream().toList()).containsExactly(1L, "OK");
	}

	@Test
	void aBlockIsDispatchedAsOneCommandWhereTheChannelReadsItsRepliesAsOne() throws Exception {
		this.lane.execute(0, KEPT, increments(KEPT, 1)).get(10, TimeUnit.SECONDS); // the lane's connection is open
		clients.dispatched().clear();
		this.lane.execute(0, KEPT, increments(KEPT, 2)).get(10, TimeUnit.SECONDS);
		assertThat(clients.dispatched()).containsExactlyElementsOf((this.kind == RecordingClients.Kind.SLIPCASE_RESOURCES)
				? List.of(BlockKeyword.BLOCK.toString())
				: List.of(BlockKeyword.MULTI.toString(), "HINCRBY", "HINCRBY", BlockKeyword.EXEC.toString()));
		assertThat(redis.command("HGET", "kept", "n")).isEqualTo("3");
	}

	@Test
	void aCommandRedisRefusesInsideABlockIsItsReplyAndTheOthersRun() throws Exception {
		redis.command("SET", "text", "not a number");
		QueuedWrites writes = increments(bytes("text"), 1);
		writes.command(CommandType.HINCRBY).add(KEPT).add(bytes("n")).add(1);
		TransactionResult result = this.lane.execute(0, KEPT, writes).get(10, TimeUnit.SECONDS);
		assertThat(result.size()).isEqualTo(2);
		assertThat((Object) result.get(0)).isInstanceOf(RedisCommandExecutionException.class);
		assertThat((Object) result.get(1)).isEqualTo(1L);
	}

	@Test
	void aBlockRedisRefusesToQueueRunsNothingAndFailsWithExecAbort() throws Exception {
		QueuedWrites writes = increments(KEPT, 1);
		// HINCRBY with a field and no increment: refused when queued
		writes.command(CommandType.HINCRBY).add(KEPT).add(bytes("field"));
		CompletableFuture<TransactionResult> result = this.lane.execute(0, KEPT, writes);
		Throwable failure = RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS));
		assertThat(RedisFailures.isBlockNotApplied(failure)).as("%s", failure).isTrue();
		// the error the malformed command was refused with
		assertThat(failure.getSuppressed()).singleElement().asString().contains("wrong number of arguments");
		assertThat(redis.command("HGET", "kept", "n")).isNull();
	}

	@Test
	void aBlockWhoseMultiIsRefusedFailsAsUnknown() throws Exception {
		redis.command("ACL", "SETUSER", "no-multi", "on", ">secret", "~*", "+@all", "-multi");
		RedisURI uri = RedisURI.create(redis.endpoint().uri());
		uri.setAuthentication("no-multi", "secret");
		TransactionLane refusing = new TransactionLane(ConnectionHolder.opening(
				Connectors.of(this.client, uri, ByteArrayCodec.INSTANCE), ByteArrayCodec.INSTANCE, false, 0,
				Duration.ofSeconds(2)));
		try {
			CompletableFuture<TransactionResult> result = refusing.execute(0, KEPT, increments(KEPT, 1));
			assertThat(RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS)))
				.isInstanceOf(UnacknowledgedWriteException.class)
				.hasMessageContaining("refused MULTI");
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
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(pool.submit(() -> {
					start.await();
					List<CompletableFuture<TransactionResult>> kept = new ArrayList<>();
					for (int i = 0; i < blocksPerThread; i++) {
						if (i % 2 == 0) {
							this.lane.execute(0, GIVEN_UP, increments(GIVEN_UP, 2)).cancel(false);
						}
						else {
							kept.add(this.lane.execute(0, KEPT, increments(KEPT, 2)));
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
					return null;
				}));
			}
			start.countDown();
			for (Future<?> thread : done) {
				thread.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(problems).isEmpty();
		assertThat(keptBlocks.get()).isEqualTo((long) threads * blocksPerThread / 2);
		assertThat(Long.parseLong((String) redis.command("HGET", "kept", "n"))).isEqualTo(2 * keptBlocks.get());
		// a given-up block ran whole or not at all
		Object givenUpIncrements = redis.command("HGET", "given-up", "n");
		assertThat((givenUpIncrements != null) ? Long.parseLong((String) givenUpIncrements) % 2 : 0L).isZero();
	}

	@Test
	void aBlockWritesEncodedValuesWholeWhenTheirOwnerReleasesThemRightAfterHandingItOver() throws Exception {
		EncodedValue value = encoded("value");
		EncodedValue escaped = encoded("escaped");
		CompletableFuture<TransactionResult> result = this.lane.execute(0, KEPT, readingBack(value, escaped));
		// a caller that gave up would release them now: the lane keeps them until the block is done with them
		value.release();
		escaped.release();
		List<Object> replies = result.get(10, TimeUnit.SECONDS).stream().toList();
		assertThat(replies).hasSize(4);
		assertThat(replies.get(2)).isEqualTo(bytes("value"));
		assertThat(replies.get(3)).isEqualTo(escapedBytes("escaped"));
		assertReleased(value, escaped);
	}

	@Test
	void aBlockCommandAStockHandlerWritesGoesOutAsSeparateCommandsWithCopiesOfItsValues() throws Exception {
		EncodedValue value = encoded("value");
		EncodedValue escaped = encoded("escaped");
		QueuedWrites writes = readingBack(value, escaped);
		assertThat(writes.hold()).isTrue();
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		try (StatefulRedisConnection<byte[], byte[]> connection = this.client.connect(ByteArrayCodec.INSTANCE,
				RedisURI.create(redis.endpoint().uri()))) {
			// through a stock handler (default resources) it writes PING, then sends the block separately
			connection.dispatch(new BlockCommand(new TransactionBlock(), writes, result, connection));
			value.release();
			escaped.release();
			List<Object> replies = result.get(10, TimeUnit.SECONDS).stream().toList();
			assertThat(replies.get(2)).isEqualTo(bytes("value"));
			assertThat(replies.get(3)).isEqualTo(escapedBytes("escaped"));
		}
		assertReleased(value, escaped);
	}

	@Test
	void aBlockWhoseValueWasReleasedBeforeItWasSentIsNeverWritten() throws Exception {
		EncodedValue value = encoded("value");
		EncodedValue kept = encoded("kept");
		QueuedWrites writes = QueuedWrites.of(2, 6);
		writes.command(CommandType.SET).add(bytes("k")).add(kept);
		writes.command(CommandType.SET).add(bytes("k")).add(value);
		value.release();
		CompletableFuture<TransactionResult> result = this.lane.execute(0, KEPT, writes);
		assertThat(RedisFailures.unwrap(result.handle((ok, ex) -> ex).get(10, TimeUnit.SECONDS)))
			.isInstanceOf(CancellationException.class);
		kept.release();
		assertReleased(value, kept);
		assertThat(redis.command("GET", "k")).isNull();
	}

	/**
	 * {@code SET k value}, {@code HSET h f} with the escape byte in front of {@code escaped}, then
	 * their reads, whose replies say what Redis stored.
	 */
	private static QueuedWrites readingBack(EncodedValue value, EncodedValue escaped) {
		QueuedWrites writes = QueuedWrites.of(4, 9);
		writes.command(CommandType.SET).add(bytes("k")).add(value);
		writes.command(CommandType.HSET).add(bytes("h")).add(bytes("f")).add((byte) 0xF7, escaped);
		writes.command(CommandType.GET).add(bytes("k"));
		writes.command(CommandType.HGET).add(bytes("h")).add(bytes("f"));
		return writes;
	}

	/** {@code text} in a pooled direct buffer, which the leak detector tracks. */
	private static EncodedValue encoded(String text) {
		return EncodedValue.encode(Utf8StringFormat.INSTANCE, text, PooledByteBufAllocator.DEFAULT);
	}

	private static void assertReleased(EncodedValue... values) {
		for (EncodedValue value : values) {
			assertThat(value.isReleased()).isTrue();
			assertThatIllegalStateException().isThrownBy(value::toByteArray);
			assertThat(value.pin()).as("pinned after its release: %s", value).isFalse();
		}
	}

	/** A block of {@code count} {@code HINCRBY key n 1}. */
	private static QueuedWrites increments(byte[] key, int count) {
		QueuedWrites writes = QueuedWrites.of(count + 1, 3 * count + 3);
		for (int i = 0; i < count; i++) {
			writes.command(CommandType.HINCRBY).add(key).add(bytes("n")).add(1);
		}
		return writes;
	}

	/** The escape byte {@code 0xF7}, then {@code text}. */
	private static byte[] escapedBytes(String text) {
		byte[] bytes = new byte[1 + text.length()];
		bytes[0] = (byte) 0xF7;
		System.arraycopy(bytes(text), 0, bytes, 1, text.length());
		return bytes;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
