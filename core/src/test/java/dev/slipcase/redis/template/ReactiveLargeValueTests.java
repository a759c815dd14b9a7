package dev.slipcase.redis.template;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import dev.slipcase.redis.test.leak.LeakReports;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ReactiveValueTemplate#upload} and {@link ReactiveValueTemplate#download}
 * against a real Redis: megabytes streamed in chunks from heap and Netty buffers, chunks read no
 * further ahead of the subscriber than the chunks in flight (a subscriber slower than Redis holds
 * Redis to its pace), a subscriber
 * that cancels or fails, a source that fails, a copy changed and a server killed mid-stream
 * leaving no buffer (the leak
 * detector runs at paranoid and fails the test on any leak) and no temporary key behind, and the
 * old value in place after a failed upload.
 */
@ExtendWith(RedisExtension.class)
class ReactiveLargeValueTests {

	private static final int CHUNK = 64 * 1024;

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static RedisServer redis;

	private static RedisClient client;

	private static ValueTemplate<String> template;

	private static ReactiveValueTemplate<String> reactive;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		template = ValueTemplate.create(client, RedisURI.create(server.endpoint().uri()), Utf8TestFormat.INSTANCE)
			.withChunkSize(CHUNK);
		reactive = template.reactive();
	}

	@AfterAll
	static void shutdown() {
		template.close();
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	/**
	 * Every test leaves no buffer unreleased, found right after it rather than whenever a later
	 * test's garbage collection reports it (a held chunk of a cancelled download once leaked).
	 */
	@AfterEach
	void leavesNoLeakedBuffer(TestInfo test) {
		LeakReports.assertNoLeaks(test.getDisplayName());
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@Test
	void uploadFromHeapBuffersThenDownloadReturnsEveryByteInNettyBuffers() {
		byte[] value = randomBytes(3 * 1024 * 1024 + 17);
		reactive.upload("big", buffers(value, 8192, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		assertThat(redis.command("STRLEN", "big")).isEqualTo((long) value.length);
		assertThat(redis.command("PTTL", "big")).as("no expiry").isEqualTo(-1L);
		List<DataBuffer> chunks = reactive.download("big").collectList().block(WAIT);
		assertThat(chunks).hasSize((value.length + CHUNK - 1) / CHUNK)
			.allSatisfy((chunk) -> assertThat(chunk).isInstanceOf(NettyDataBuffer.class));
		assertThat(join(chunks)).isEqualTo(value);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
	}

	@Test
	void uploadFromNettyBuffersWritesThemWithoutACopyAndReleasesThem() {
		byte[] value = randomBytes(1024 * 1024 + 3);
		NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
		List<DataBuffer> sent = buffers(value, 100_000, netty).collectList().block(WAIT);
		reactive.upload("big", Flux.fromIterable(sent)).block(WAIT);
		assertThat(sent).allSatisfy((buffer) -> assertThat(((NettyDataBuffer) buffer).getNativeBuffer().refCnt()).isZero());
		assertThat(join(reactive.download("big").collectList().block(WAIT))).isEqualTo(value);
	}

	@Test
	void emptyValuesAndMissingKeys() {
		reactive.upload("empty", Flux.empty()).block(WAIT);
		assertThat(redis.command("GET", "empty")).isEqualTo("");
		assertThat(reactive.download("empty").collectList().block(WAIT)).isEmpty();
		assertThat(reactive.download("missing").collectList().block(WAIT)).isEmpty();
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
	}

	@Test
	void aDownloadReadsNoFurtherAheadOfTheSubscriberThanItsChunksInFlightAndACancelReleasesWhatItHeld()
			throws Exception {
		byte[] value = randomBytes(20 * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		OneAtATime subscriber = new OneAtATime();
		reactive.download("big").subscribe(subscriber);
		waitUntil(() -> subscriber.received.size() == 1);
		Thread.sleep(300);
		assertThat(subscriber.received).hasSize(1);
		// the chunk handed over and the chunks in flight behind it: no more until the subscriber asks
		assertThat(redis.calls("getrange")).isEqualTo(1L + ReactiveLargeValueTransfer.IN_FLIGHT);
		subscriber.cancel();
		subscriber.received.forEach(DataBufferUtils::release);
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aSubscriberSlowerThanRedisGetsEveryByteWithRedisAskedOnlyForWhatItAskedFor() throws Exception {
		byte[] value = randomBytes(12 * CHUNK + 5);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		OneAtATime subscriber = new OneAtATime();
		reactive.download("big").subscribe(subscriber);
		for (int chunk = 1; chunk <= 13; chunk++) {
			int expected = chunk;
			waitUntil(() -> subscriber.received.size() == expected);
			long readAhead = Math.min(13, chunk + ReactiveLargeValueTransfer.IN_FLIGHT);
			waitUntil(() -> redis.calls("getrange") >= readAhead);
			Thread.sleep(20); // the subscriber is busy; Redis is not asked for more meanwhile
			assertThat(redis.calls("getrange")).as("GETRANGEs after %d chunks", chunk).isEqualTo(readAhead);
			subscriber.request(1);
		}
		waitUntil(() -> subscriber.completed);
		assertThat(join(subscriber.received)).isEqualTo(value);
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aSubscriberSlowerThanTheCommandTimeoutIsNoTimeout() throws Exception {
		RedisURI uri = RedisURI.builder(RedisURI.create(redis.endpoint().uri())).withTimeout(Duration.ofMillis(200)).build();
		// a view would share the template's connections and their timeout: a template of its own
		try (ValueTemplate<String> shortTimeout = ValueTemplate.create(client, uri, Utf8TestFormat.INSTANCE)
			.withChunkSize(CHUNK)) {
			byte[] value = randomBytes(3 * CHUNK);
			shortTimeout.reactive().upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance))
				.block(WAIT);
			OneAtATime subscriber = new OneAtATime();
			shortTimeout.reactive().download("big").subscribe(subscriber);
			for (int chunk = 1; chunk <= 3; chunk++) {
				int expected = chunk;
				waitUntil(() -> subscriber.received.size() == expected || subscriber.failure != null);
				assertThat(subscriber.failure).as("failure after %d chunks", chunk).isNull();
				Thread.sleep(500); // a slow client: longer than the command timeout between chunks
				subscriber.request(1);
			}
			waitUntil(() -> subscriber.completed || subscriber.failure != null);
			assertThat(subscriber.failure).isNull();
			assertThat(join(subscriber.received)).isEqualTo(value);
		}
	}

	@Test
	void redisKilledMidDownloadFailsTheStreamWithAClearErrorAndNoLeak() throws Exception {
		try (RedisServer doomed = RedisServers.start()) {
			RedisURI uri = RedisURI.builder(RedisURI.create(doomed.endpoint().uri())).withTimeout(Duration.ofSeconds(2)).build();
			try (ValueTemplate<String> own = ValueTemplate.create(client, uri, Utf8TestFormat.INSTANCE).withChunkSize(CHUNK)) {
				ReactiveValueTemplate<String> streams = own.reactive();
				// more chunks than the download reads ahead: some are still to be read when Redis dies
				int chunks = 4 * ReactiveLargeValueTransfer.IN_FLIGHT;
				streams.upload("big", buffers(randomBytes(chunks * CHUNK), CHUNK, DefaultDataBufferFactory.sharedInstance))
					.block(WAIT);
				OneAtATime subscriber = new OneAtATime();
				streams.download("big").subscribe(subscriber);
				waitUntil(() -> subscriber.received.size() == 1);
				doomed.kill();
				subscriber.request(chunks - 1);
				waitUntil(() -> subscriber.failure != null);
				assertThat(subscriber.failure).isInstanceOf(DataAccessException.class)
					.hasMessageContaining("download 'big'");
				assertThat(subscriber.completed).isFalse();
				subscriber.received.forEach(DataBufferUtils::release);
			}
		}
	}

	@Test
	void aCopyChangedMidDownloadFailsTheStreamWithAClearErrorAndNoLeak() throws Exception {
		// more chunks than the download reads ahead: some are still to be read when the copy changes
		int chunks = 4 * ReactiveLargeValueTransfer.IN_FLIGHT;
		byte[] value = randomBytes(chunks * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		OneAtATime subscriber = new OneAtATime();
		reactive.download("big").subscribe(subscriber);
		waitUntil(() -> subscriber.received.size() == 1);
		// someone truncates the download's consistent copy under it
		List<?> copies = (List<?>) redis.command("KEYS", "*big*");
		String copy = (String) copies.stream().filter((name) -> !"big".equals(name)).findFirst().orElseThrow();
		redis.command("SET", copy, "short");
		subscriber.request(chunks - 1);
		waitUntil(() -> subscriber.failure != null);
		assertThat(subscriber.failure).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("'big'")
			.hasMessageContaining("changed");
		assertThat(subscriber.completed).isFalse();
		// the chunks read before the copy changed, and no more
		assertThat(subscriber.received).hasSizeBetween(1, 1 + ReactiveLargeValueTransfer.IN_FLIGHT);
		subscriber.received.forEach(DataBufferUtils::release);
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
		assertThat(redis.command("STRLEN", "big")).isEqualTo((long) value.length);
	}

	@Test
	void aSubscriberThatFailsMidDownloadStopsItReleasingWhatItHeldAndTheCopy() throws Exception {
		byte[] value = randomBytes(10 * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		AtomicInteger seen = new AtomicInteger();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> reactive.download("big")
				.doOnNext((chunk) -> {
					DataBufferUtils.release(chunk);
					if (seen.incrementAndGet() == 3) {
						throw new IllegalStateException("the consumer failed on chunk 3");
					}
				})
				.blockLast(WAIT))
			.withMessage("the consumer failed on chunk 3");
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
		// no more than the chunks in flight beyond the failing one were read
		assertThat(redis.calls("getrange")).isBetween(3L, 3L + ReactiveLargeValueTransfer.IN_FLIGHT);
	}

	@Test
	void aSourceThatFailsMidStreamFailsTheUploadLeavesTheOldValueAndNoTemporaryKey() throws Exception {
		redis.command("SET", "big", "old");
		byte[] value = randomBytes(5 * 8192);
		Flux<DataBuffer> failing = Flux.concat(buffers(value, 8192, DefaultDataBufferFactory.sharedInstance),
				Flux.error(new IOException("the client went away")));
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> reactive.upload("big", failing).block(WAIT))
			.havingRootCause()
			.isInstanceOf(IOException.class)
			.withMessage("the client went away");
		assertThat(redis.command("GET", "big")).isEqualTo("old");
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aCancelledUploadLeavesTheOldValueAndNoTemporaryKey() throws Exception {
		redis.command("SET", "big", "old");
		NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
		// a source that never ends: a few buffers, then nothing
		Flux<DataBuffer> stalled = Flux.concat(buffers(randomBytes(3 * 8192), 8192, netty), Flux.never());
		reactive.upload("big", stalled).subscribe().dispose();
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
		assertThat(redis.command("GET", "big")).isEqualTo("old");
	}

	@Test
	void downloadingAKeyThatIsNotAStringFailsAndLeavesNoTemporaryKey() throws Exception {
		redis.command("HSET", "hash", "f", "v");
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> reactive.download("hash").collectList().block(WAIT))
			.withMessageContaining("download 'hash'");
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	private static Flux<DataBuffer> buffers(byte[] value, int size, DataBufferFactory factory) {
		return Flux.range(0, (value.length + size - 1) / size).map((i) -> {
			int from = i * size;
			int length = Math.min(size, value.length - from);
			DataBuffer buffer = factory.allocateBuffer(length);
			buffer.write(value, from, length);
			return buffer;
		});
	}

	private static byte[] join(List<DataBuffer> chunks) {
		int total = chunks.stream().mapToInt(DataBuffer::readableByteCount).sum();
		byte[] joined = new byte[total];
		int at = 0;
		for (DataBuffer chunk : chunks) {
			int length = chunk.readableByteCount();
			chunk.read(joined, at, length);
			at += length;
			DataBufferUtils.release(chunk);
		}
		return joined;
	}

	private static byte[] randomBytes(int size) {
		byte[] bytes = new byte[size];
		new Random(42).nextBytes(bytes);
		return bytes;
	}

	private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited 10 s for the condition").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

	/** Asks for one chunk and no more. */
	private static final class OneAtATime extends BaseSubscriber<DataBuffer> {

		final List<DataBuffer> received = new java.util.concurrent.CopyOnWriteArrayList<>();

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(1);
		}

		volatile boolean completed;

		volatile Throwable failure;

		@Override
		protected void hookOnNext(DataBuffer chunk) {
			this.received.add(chunk);
		}

		@Override
		protected void hookOnComplete() {
			this.completed = true;
		}

		@Override
		protected void hookOnError(Throwable failure) {
			this.failure = failure;
		}

	}

}
