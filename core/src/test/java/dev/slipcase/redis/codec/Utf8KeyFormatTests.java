package dev.slipcase.redis.codec;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Tests for {@link Utf8KeyFormat}. */
class Utf8KeyFormatTests {

	@ParameterizedTest
	@ValueSource(strings = { "", "order:42", "ключ", "emoji:\uD83D\uDE00", "mixed é ☃" })
	void estimateIsTheExactUtf8LengthAndTheKeyRoundTrips(String key) {
		ByteBuf buffer = Unpooled.buffer();
		try {
			Utf8KeyFormat.INSTANCE.encode(key, buffer);
			assertThat(buffer.readableBytes()).isEqualTo(Utf8KeyFormat.INSTANCE.estimateSize(key))
				.isEqualTo(key.getBytes(StandardCharsets.UTF_8).length);
			assertThat(Utf8KeyFormat.INSTANCE.decode(buffer)).isEqualTo(key);
			assertThat(buffer.isReadable()).isFalse();
		}
		finally {
			buffer.release();
		}
	}

}
