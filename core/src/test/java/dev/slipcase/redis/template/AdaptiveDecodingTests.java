package dev.slipcase.redis.template;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.PickyFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sync reads of a {@link ValueTemplate} decode a reply where it is cheapest, by its stored
 * size: below the threshold in place on the connection's event loop, from it on the caller's
 * thread from a pooled copy, which is released whatever happens. Against a real Redis.
 */
@ExtendWith(RedisExtension.class)
class AdaptiveDecodingTests {

	private static final int DEFAULT_THRESHOLD = TemplateSettings.DEFAULT_CALLER_DECODE_FROM;

	private static RedisServer redis;

	private static RedisClient client;

	private static RedisURI uri;

	private final ThreadRecordingFormat format = new ThreadRecordingFormat();

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create();
		uri = RedisURI.create(server.endpoint().uri());
	}

	@AfterAll
	static void shutdown() {
		client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	@BeforeEach
	void flush() {
		redis.flushAll();
	}

	@Test
	void byDefaultASmallValueIsDecodedOnTheEventLoopAndALargeOneOnTheCaller() {
		try (ValueTemplate<String> template = ValueTemplate.create(client, uri, this.format)) {
			String small = "s".repeat(DEFAULT_THRESHOLD - 1);
			String large = "l".repeat(DEFAULT_THRESHOLD);
			template.set("small", small);
			template.set("large", large);
			assertThat(template.get("small")).isEqualTo(small);
			assertThat(template.get("large")).isEqualTo(large);
			assertThat(this.format.decodedOn).hasSize(2);
			assertThat(this.format.decodedOn.get(0)).isNotSameAs(Thread.currentThread());
			assertThat(this.format.decodedOn.get(1)).isSameAs(Thread.currentThread());
		}
	}

	@Test
	void theThresholdIsTheStoredSizeAndEveryReadHonoursIt() {
		try (ValueTemplate<String> template = ValueTemplate.create(client, uri, this.format)
			.withCallerThreadDecodingFrom(100)) {
			template.set("below", "b".repeat(99));
			template.set("at", "a".repeat(100));
			template.hset("hash", "at", "h".repeat(100));
			assertThat(template.get("below")).hasSize(99);
			assertThat(template.get("at")).hasSize(100);
			assertThat(template.hget("hash", "at")).hasSize(100);
			assertThat(template.getAndDelete("at")).hasSize(100);
			assertThat(this.format.decodedOn).containsExactly(this.format.decodedOn.get(0), Thread.currentThread(),
					Thread.currentThread(), Thread.currentThread());
			assertThat(this.format.decodedOn.get(0)).isNotSameAs(Thread.currentThread());
			assertThat(template.get("at")).isNull();
		}
	}

	@Test
	void zeroDecodesEveryValueOnTheCallerAndTheMaximumNone() {
		try (ValueTemplate<String> base = ValueTemplate.create(client, uri, this.format)) {
			base.set("k", "x".repeat(DEFAULT_THRESHOLD * 2));
			base.set("tiny", "t");
			assertThat(base.withCallerThreadDecodingFrom(0).get("tiny")).isEqualTo("t");
			assertThat(base.withCallerThreadDecoding().get("tiny")).isEqualTo("t");
			assertThat(base.withCallerThreadDecodingFrom(Integer.MAX_VALUE).get("k")).hasSize(DEFAULT_THRESHOLD * 2);
			assertThat(this.format.decodedOn.subList(0, 2)).containsOnly(Thread.currentThread());
			assertThat(this.format.decodedOn.get(2)).isNotSameAs(Thread.currentThread());
		}
	}

	@Test
	void aLargeValueThatDoesNotDecodeFailsNamingTheKeyAndItsCopyIsReleased() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		try (ValueTemplate<String> template = ValueTemplate.create(client, uri, PickyFormat.INSTANCE)
			.withAllocator(allocator)
			.withCallerThreadDecodingFrom(10)) {
			template.set("bad", "corrupt" + "x".repeat(100));
			template.hset("hash", "bad", "crash" + "x".repeat(100));
			allocator.forget();
			assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> template.get("bad"))
				.withMessageContaining("'bad'")
				.withMessageContaining("corrupt bytes");
			assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> template.hget("hash", "bad"))
				.withMessageContaining("'hash'")
				.withMessageContaining("bad");
			assertThat(allocator.buffers()).hasSize(2).allSatisfy((buffer) -> assertThat(buffer.refCnt()).isZero());
			template.set("good", "fine" + "x".repeat(100));
			assertThat(template.get("good")).startsWith("fine");
		}
	}

	@Test
	void aReadThatTimesOutReleasesTheCopyOfAReplyThatArrivesLater() throws InterruptedException {
		RecordingAllocator allocator = new RecordingAllocator(true);
		RedisURI shortTimeout = RedisURI.builder(uri).withTimeout(Duration.ofMillis(300)).build();
		try (ValueTemplate<String> template = ValueTemplate.create(client, shortTimeout, this.format)
			.withAllocator(allocator)
			.withCallerThreadDecodingFrom(0)) {
			template.set("k", "v".repeat(1000));
			allocator.forget();
			// every client's commands wait for a second: the reply comes after the caller gave up
			redis.command("CLIENT", "PAUSE", "1000", "ALL");
			assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> template.get("k"))
				.withMessageContaining("'k'");
			Thread.sleep(1200);
			assertThat(template.get("k")).hasSize(1000);
			assertThat(allocator.buffers()).allSatisfy((buffer) -> assertThat(buffer.refCnt()).isZero());
			assertThat(this.format.decodedOn).containsExactly(Thread.currentThread());
		}
	}

	/** UTF-8 strings that remember the thread each value was decoded on. */
	static final class ThreadRecordingFormat implements ValueFormat<String> {

		final List<Thread> decodedOn = new CopyOnWriteArrayList<>();

		@Override
		public void encode(String value, ByteBuf out) {
			out.writeCharSequence(value, StandardCharsets.UTF_8);
		}

		@Override
		public String decode(ByteBuf in) {
			this.decodedOn.add(Thread.currentThread());
			return in.readCharSequence(in.readableBytes(), StandardCharsets.UTF_8).toString();
		}

		@Override
		public String name() {
			return "test-thread-recording";
		}

	}

}
