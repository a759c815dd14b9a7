package dev.slipcase.redis.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.slipcase.redis.test.RedisExtension;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.testformat.PickyFormat;
import dev.slipcase.redis.testformat.Point;
import dev.slipcase.redis.testformat.PointFormat;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link FormatCodec}: values go through a real Redis with Lettuce's own command API,
 * written by the format into Lettuce's buffer and decoded from Lettuce's receive buffer.
 */
@ExtendWith(RedisExtension.class)
class FormatCodecTests {

	private static RedisClient client;

	private static RedisServer redis;

	@BeforeAll
	static void connect(RedisServer server) {
		redis = server;
		client = RedisClient.create(RedisURI.create(server.endpoint().uri()));
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
	void stringKeysAndValuesRoundTripThroughRedisIncludingNonAscii() {
		try (StatefulRedisConnection<String, String> connection = client.connect(FormatCodec.of(Utf8TestFormat.INSTANCE))) {
			connection.sync().set("schlüssel:✓", "wert ☃ – ok");
			assertThat(connection.sync().get("schlüssel:✓")).isEqualTo("wert ☃ – ok");
			assertThat(connection.sync().keys("schl*")).containsExactly("schlüssel:✓");
		}
	}

	@Test
	void bytesOnTheServerAreTheFormatsBytes() {
		try (StatefulRedisConnection<String, String> connection = client.connect(FormatCodec.of(Utf8TestFormat.INSTANCE))) {
			connection.sync().set("plain", "héllo");
		}
		assertThat(redis.command("STRLEN", "plain")).isEqualTo(6L);
	}

	@Test
	void fixedBinaryRecordsRoundTrip() {
		try (StatefulRedisConnection<String, Point> connection = client.connect(FormatCodec.of(PointFormat.INSTANCE))) {
			connection.sync().set("point", new Point(-1L, Long.MAX_VALUE, 42));
			assertThat(connection.sync().get("point")).isEqualTo(new Point(-1L, Long.MAX_VALUE, 42));
			assertThat(connection.sync().mget("point", "missing"))
				.extracting((kv) -> kv.getValueOrElse(null))
				.containsExactly(new Point(-1L, Long.MAX_VALUE, 42), null);
		}
		assertThat(redis.command("STRLEN", "point")).isEqualTo(20L);
	}

	@Test
	void decodeErrorFailsOnlyItsOwnCommandAndTheConnectionCarriesOn() throws Exception {
		redis.command("SET", "good", "fine");
		redis.command("SET", "bad", "corrupt!");
		try (StatefulRedisConnection<String, String> connection = client.connect(FormatCodec.of(PickyFormat.INSTANCE))) {
			RedisAsyncCommands<String, String> async = connection.async();
			CompletableFuture<String> before = async.get("good").toCompletableFuture();
			CompletableFuture<String> bad = async.get("bad").toCompletableFuture();
			CompletableFuture<String> after = async.get("good").toCompletableFuture();
			assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo("fine");
			assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo("fine");
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(SerializationException.class)
				.withMessageContaining("test-picky")
				.withMessageContaining("corrupt bytes");
			assertThat(connection.sync().ping()).isEqualTo("PONG");
		}
	}

	@Test
	void anyOtherDecodeFailureBecomesASerializationExceptionNamingTheFormat() {
		FormatCodec<String, String> codec = FormatCodec.of(PickyFormat.INSTANCE);
		ByteBuffer bytes = StandardCharsets.UTF_8.encode("crash now");
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> codec.decodeValue(bytes))
			.withMessageContaining("test-picky")
			.withMessageContaining("crashed");
	}

	@Test
	void decodeReadsLettucesBufferWithoutMovingItsPosition() {
		ByteBuffer direct = ByteBuffer.allocateDirect(32);
		direct.put(StandardCharsets.UTF_8.encode("xxvalue")).flip().position(2);
		assertThat(FormatCodec.of(Utf8TestFormat.INSTANCE).decodeValue(direct)).isEqualTo("value");
		assertThat(direct.position()).isEqualTo(2);
	}

	@Test
	void estimateIsExactOnlyWhenBothFormatsAreExactAndTheSame() {
		assertThat(FormatCodec.of(Utf8KeyFormat.INSTANCE, Utf8KeyFormat.INSTANCE).isEstimateExact()).isTrue();
		assertThat(FormatCodec.of(PointFormat.INSTANCE).isEstimateExact()).isFalse();
		assertThat(FormatCodec.of(PickyFormat.INSTANCE).isEstimateExact()).isFalse();
	}

	@Test
	void estimatesKeysAndValuesOfDifferentTypes() {
		FormatCodec<String, Point> codec = FormatCodec.of(PointFormat.INSTANCE);
		assertThat(codec.estimateSize(new Point(1, 2, 3))).isEqualTo(20);
		assertThat(codec.estimateSize("ключ")).isEqualTo(8);
	}

	@Test
	void byteBufferFormsAreCopiesOfTheEncodedBytes() {
		FormatCodec<String, Point> codec = FormatCodec.of(PointFormat.INSTANCE);
		ByteBuffer value = codec.encodeValue(new Point(1, 2, 3));
		assertThat(value.remaining()).isEqualTo(20);
		assertThat(codec.decodeValue(value)).isEqualTo(new Point(1, 2, 3));
		assertThat(codec.decodeKey(codec.encodeKey("ключ"))).isEqualTo("ключ");
	}

	@Test
	void writesIntoTheGivenBufferAndNeverReleasesIt() {
		FormatCodec<String, String> codec = FormatCodec.of(Utf8TestFormat.INSTANCE);
		ByteBuf target = Unpooled.buffer();
		codec.encodeKey("k", target);
		codec.encodeValue("v", target);
		assertThat(target.refCnt()).isEqualTo(1);
		assertThat(target.toString(StandardCharsets.UTF_8)).isEqualTo("kv");
		target.release();
	}

	@Test
	void rejectsMissingFormats() {
		assertThatIllegalArgumentException().isThrownBy(() -> FormatCodec.of(null)).withMessageContaining("values");
		assertThatIllegalArgumentException().isThrownBy(() -> FormatCodec.of(null, Utf8TestFormat.INSTANCE))
			.withMessageContaining("keys");
	}

}
