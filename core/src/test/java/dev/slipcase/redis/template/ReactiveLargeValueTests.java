package dev.slipcase.redis.template;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import reactor.core.publisher.SignalType;

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
 * Tests for {@link ReactiveValueTemplate#upload}, {@link ReactiveValueTemplate#download} and
 * {@link ReactiveValueTemplate#openDownload} against a real Redis: megabytes streamed in chunks
 * from heap and Netty buffers, uploads gathered into one {@code APPEND} per chunk however small the
 * buffers, downloads holding no more than their window of unreleased chunks whatever the
 * subscriber requests (a subscriber slower than Redis holds Redis to its pace), a download's length
 * before its content, a subscriber that cancels or fails, a source that fails, a copy changed and
 * a server killed mid-stream leaving no buffer (the leak detector runs at paranoid and fails the
 * test on any leak) and no temporary key behind, and the old value in place after a failed upload.
 */
@ExtendWith(RedisExtension.class)
class ReactiveLargeValueTests {

	private static final int CHUNK = 64 * 1024;

	private static final int WINDOW = ReactiveLargeValueTransfer.DEFAULT_WINDOW;

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
		List<Integer> sizes = new ArrayList<>();
		byte[] read = bytes(reactive.download("big").doOnNext((chunk) -> {
			assertThat(chunk).isInstanceOf(NettyDataBuffer.class);
			sizes.add(chunk.readableByteCount());
		}));
		assertThat(sizes).hasSize((value.length + CHUNK - 1) / CHUNK);
		assertThat(read).isEqualTo(value);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
	}

	@Test
	void anUploadSendsOneCommandPerChunkHoweverSmallTheBuffersItIsGivenAndReleasesEachOne() {
		byte[] value = randomBytes(20 * CHUNK + 3);
		NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
		// as a network read delivers a request body: buffers of a few KB, not aligned to chunks
		List<DataBuffer> sent = buffers(value, 7_001, netty).collectList().block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		reactive.upload("big", Flux.fromIterable(sent)).block(WAIT);
		// 21 chunks: the first in the SET that makes the temporary key, the others APPENDed
		assertThat(redis.calls("set")).isEqualTo(1L);
		assertThat(redis.calls("append")).isEqualTo(20L);
		assertThat(sent).allSatisfy((buffer) -> assertThat(((NettyDataBuffer) buffer).getNativeBuffer().refCnt()).isZero());
		assertThat(bytes(reactive.download("big"))).isEqualTo(value);
	}

	@Test
	void emptyValuesAndMissingKeys() throws Exception {
		reactive.upload("empty", Flux.empty()).block(WAIT);
		assertThat(redis.command("GET", "empty")).isEqualTo("");
		assertThat(reactive.download("empty").collectList().block(WAIT)).isEmpty();
		assertThat(reactive.download("missing").collectList().block(WAIT)).isEmpty();
		assertThat(reactive.openDownload("empty").flatMap((download) -> download.discard().thenReturn(download.length()))
			.block(WAIT)).isZero();
		assertThat(reactive.openDownload("missing").blockOptional(WAIT)).isEmpty();
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void anOpenedDownloadKnowsItsLengthBeforeItsContentWhichIsReadOnceAndDeletesTheCopy() throws Exception {
		byte[] value = randomBytes(3 * CHUNK + 5);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		Download download = reactive.openDownload("big").block(WAIT);
		assertThat(download.key()).isEqualTo("big");
		assertThat(download.length()).isEqualTo(value.length);
		assertThat(redis.calls("getrange")).as("nothing read before the content is").isZero();
		assertThat(redis.command("DBSIZE")).as("the copy").isEqualTo(2L);
		assertThat(bytes(download.content())).isEqualTo(value);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> download.content().blockLast(WAIT))
			.withMessage("The download of 'big' was already read or discarded");
		Download discarded = reactive.openDownload("big").block(WAIT);
		assertThat(redis.command("DBSIZE")).isEqualTo(2L);
		discarded.discard().block(WAIT);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> discarded.content().blockLast(WAIT));
		// opened and cancelled before the download is handed on: the copy goes too. Writes are
		// paused so that the copying script's reply, if it was written, cannot come before the cancellation
		redis.command("CONFIG", "RESETSTAT");
		redis.command("CLIENT", "PAUSE", "300", "WRITE");
		AtomicBoolean handedOn = new AtomicBoolean();
		reactive.openDownload("big").subscribe((opened) -> handedOn.set(true)).dispose();
		waitUntil(() -> redis.calls("del") == 1);
		assertThat(redis.calls("evalsha")).as("copies made, or none when cancelled before it was written").isLessThan(2);
		assertThat(redis.command("DBSIZE")).as("temporary keys left").isEqualTo(1L);
		assertThat(handedOn).isFalse();
	}

	@Test
	void anOpenedDownloadsCopyLivesAMinuteUntilItsContentIsRead() throws Exception {
		byte[] value = randomBytes(2 * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		Download download = reactive.openDownload("big").block(WAIT);
		String copy = copyOf("big");
		assertThat((Long) redis.command("PTTL", copy)).isBetween(1L, 60_000L);
		OneAtATime subscriber = new OneAtATime(1, true);
		download.content().subscribe(subscriber);
		waitUntil(() -> subscriber.held.size() == 1);
		assertThat((Long) redis.command("PTTL", copy)).as("extended once read").isGreaterThan(60_000L);
		// released before the rest is asked for: the subscriber releases what it still holds when
		// the download completes, which the rest may do at once
		DataBufferUtils.release(subscriber.held.remove(0));
		subscriber.releaseOnReceipt = true;
		subscriber.request(Long.MAX_VALUE);
		waitUntil(() -> subscriber.completed);
		assertThat(subscriber.bytes()).isEqualTo(value);
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
		// a copy gone before its content is read fails the content, saying so
		Download expired = reactive.openDownload("big").block(WAIT);
		redis.command("DEL", copyOf("big"));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> expired.content().blockLast(WAIT))
			.withMessageContaining("expired before its content was read");
	}

	@Test
	void anUploadWhoseAppendFailsMidwayReleasesEveryChunkItGatheredAndLeavesTheOldValue() throws Exception {
		redis.command("SET", "big", "old");
		NettyDataBufferFactory netty = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
		byte[] value = randomBytes(40 * CHUNK);
		// after a few chunks someone turns the temporary key into a hash: the next APPEND fails
		Flux<DataBuffer> source = buffers(value, 7_001, netty).index().map((indexed) -> {
			if (indexed.getT1() == 40) {
				String temporary = copyOf("big");
				redis.command("DEL", temporary);
				redis.command("HSET", temporary, "f", "v");
			}
			return indexed.getT2();
		});
		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> reactive.upload("big", source).block(WAIT))
			.withMessageContaining("WRONGTYPE");
		assertThat(redis.command("GET", "big")).isEqualTo("old");
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aDownloadHoldsNoMoreThanItsWindowOfUnreleasedChunksWhateverTheSubscriberRequests() throws Exception {
		int window = 3;
		ReactiveValueTemplate<String> narrow = template.withTransferWindow(window).reactive();
		byte[] value = randomBytes(12 * CHUNK);
		narrow.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		// asks for everything at once, as Reactor Netty's response writer asks for 128 buffers, and
		// keeps what it gets, as it does while the client does not read
		OneAtATime subscriber = new OneAtATime(Long.MAX_VALUE, true);
		narrow.download("big").subscribe(subscriber);
		waitUntil(() -> subscriber.held.size() == window);
		Thread.sleep(300);
		assertThat(subscriber.held).hasSize(window);
		assertThat(redis.calls("getrange")).isEqualTo(window);
		// each chunk released (written to the socket) makes room for one more
		DataBufferUtils.release(subscriber.held.remove(0));
		waitUntil(() -> subscriber.held.size() == window);
		Thread.sleep(100);
		assertThat(redis.calls("getrange")).isEqualTo(window + 1L);
		subscriber.releaseOnReceipt = true;
		List<DataBuffer> kept = new ArrayList<>(subscriber.held);
		subscriber.held.clear();
		kept.forEach(DataBufferUtils::release);
		waitUntil(() -> subscriber.completed);
		assertThat(subscriber.bytes()).isEqualTo(value);
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aDownloadReadsNoFurtherAheadOfTheSubscriberThanItsWindowAndACancelReleasesWhatItHeld()
			throws Exception {
		byte[] value = randomBytes(20 * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		OneAtATime subscriber = new OneAtATime(1, false);
		reactive.download("big").subscribe(subscriber);
		waitUntil(() -> subscriber.received.size() == 1);
		Thread.sleep(300);
		assertThat(subscriber.received).hasSize(1);
		// the chunk handed over (released) and a window of chunks behind it: no more until asked
		assertThat(redis.calls("getrange")).isEqualTo(1L + WINDOW);
		subscriber.cancel();
		waitUntil(() -> ((Long) redis.command("DBSIZE")) == 1L);
	}

	@Test
	void aSubscriberSlowerThanRedisGetsEveryByteWithRedisAskedOnlyForWhatItAskedFor() throws Exception {
		byte[] value = randomBytes(12 * CHUNK + 5);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		redis.command("CONFIG", "RESETSTAT");
		OneAtATime subscriber = new OneAtATime(1, false);
		reactive.download("big").subscribe(subscriber);
		for (int chunk = 1; chunk <= 13; chunk++) {
			int expected = chunk;
			waitUntil(() -> subscriber.received.size() == expected);
			long readAhead = Math.min(13, chunk + WINDOW);
			waitUntil(() -> redis.calls("getrange") >= readAhead);
			Thread.sleep(20); // the subscriber is busy; Redis is not asked for more meanwhile
			assertThat(redis.calls("getrange")).as("GETRANGEs after %d chunks", chunk).isEqualTo(readAhead);
			subscriber.request(1);
		}
		waitUntil(() -> subscriber.completed);
		assertThat(subscriber.bytes()).isEqualTo(value);
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
			// holding a window of one chunk: the next waits for the subscriber longer than the timeout
			OneAtATime subscriber = new OneAtATime(1, true);
			shortTimeout.withTransferWindow(1).reactive().download("big").subscribe(subscriber);
			for (int chunk = 1; chunk <= 3; chunk++) {
				int expected = chunk;
				waitUntil(() -> subscriber.received.size() == expected || subscriber.failure != null);
				assertThat(subscriber.failure).as("failure after %d chunks", chunk).isNull();
				// a slow client: asks for the next chunk, which waits for room longer than the timeout
				subscriber.request(1);
				Thread.sleep(500);
				if (chunk < 3) {
					DataBufferUtils.release(subscriber.held.remove(0));
				}
			}
			waitUntil(() -> subscriber.completed || subscriber.failure != null);
			assertThat(subscriber.failure).isNull();
			assertThat(subscriber.bytes()).isEqualTo(value);
		}
	}

	@Test
	void redisKilledMidDownloadFailsTheStreamWithAClearErrorAndNoLeak() throws Exception {
		try (RedisServer doomed = RedisServers.start()) {
			RedisURI uri = RedisURI.builder(RedisURI.create(doomed.endpoint().uri())).withTimeout(Duration.ofSeconds(2)).build();
			try (ValueTemplate<String> own = ValueTemplate.create(client, uri, Utf8TestFormat.INSTANCE).withChunkSize(CHUNK)) {
				ReactiveValueTemplate<String> streams = own.reactive();
				// more chunks than the download reads ahead: some are still to be read when Redis dies
				int chunks = 4 * WINDOW;
				streams.upload("big", buffers(randomBytes(chunks * CHUNK), CHUNK, DefaultDataBufferFactory.sharedInstance))
					.block(WAIT);
				OneAtATime subscriber = new OneAtATime(1, false);
				streams.download("big").subscribe(subscriber);
				waitUntil(() -> subscriber.received.size() == 1);
				doomed.kill();
				subscriber.request(chunks - 1);
				waitUntil(() -> subscriber.failure != null);
				assertThat(subscriber.failure).isInstanceOf(DataAccessException.class)
					.hasMessageContaining("download 'big'");
				assertThat(subscriber.completed).isFalse();
			}
		}
	}

	@Test
	void aCopyChangedMidDownloadFailsTheStreamWithAClearErrorAndNoLeak() throws Exception {
		// more chunks than the download reads ahead: some are still to be read when the copy changes
		int chunks = 4 * WINDOW;
		byte[] value = randomBytes(chunks * CHUNK);
		reactive.upload("big", buffers(value, CHUNK, DefaultDataBufferFactory.sharedInstance)).block(WAIT);
		OneAtATime subscriber = new OneAtATime(1, false);
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
		assertThat(subscriber.received).hasSizeBetween(1, 1 + WINDOW);
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
		assertThat(redis.calls("getrange")).isBetween(3L, 3L + WINDOW);
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

	/** The temporary key a transfer of {@code key} works in. */
	private static String copyOf(String key) {
		List<?> keys = (List<?>) redis.command("KEYS", "*" + key + "*:slipcase:tmp:*");
		assertThat(keys).hasSize(1);
		return (String) keys.get(0);
	}

	/** Every byte of a download, each chunk released as it comes, as a server writing it does. */
	private static byte[] bytes(Flux<DataBuffer> download) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		download.doOnNext((chunk) -> {
			byte[] part = new byte[chunk.readableByteCount()];
			chunk.read(part);
			DataBufferUtils.release(chunk);
			out.writeBytes(part);
		}).blockLast(WAIT);
		return out.toByteArray();
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

	/**
	 * Asks for {@code initial} chunks, then for what a test requests; copies each chunk's bytes and
	 * releases it, or holds it (in {@link #held}, for the test to release) while
	 * {@link #releaseOnReceipt} is false.
	 */
	private static final class OneAtATime extends BaseSubscriber<DataBuffer> {

		final List<byte[]> received = new CopyOnWriteArrayList<>();

		final List<DataBuffer> held = new CopyOnWriteArrayList<>();

		private final long initial;

		volatile boolean releaseOnReceipt;

		volatile boolean completed;

		volatile Throwable failure;

		OneAtATime(long initial, boolean hold) {
			this.initial = initial;
			this.releaseOnReceipt = !hold;
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(this.initial);
		}

		@Override
		protected void hookOnNext(DataBuffer chunk) {
			byte[] part = new byte[chunk.readableByteCount()];
			chunk.read(part);
			chunk.readPosition(0);
			this.received.add(part);
			if (this.releaseOnReceipt) {
				DataBufferUtils.release(chunk);
			}
			else {
				this.held.add(chunk);
			}
		}

		@Override
		protected void hookOnComplete() {
			this.completed = true;
		}

		@Override
		protected void hookOnError(Throwable failure) {
			this.failure = failure;
		}

		@Override
		protected void hookFinally(SignalType type) {
			this.held.forEach(DataBufferUtils::release);
			this.held.clear();
		}

		byte[] bytes() {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			this.received.forEach(out::writeBytes);
			return out.toByteArray();
		}

	}

}
