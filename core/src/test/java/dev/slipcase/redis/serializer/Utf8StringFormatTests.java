package dev.slipcase.redis.serializer;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class Utf8StringFormatTests {

	private final Utf8StringFormat format = Utf8StringFormat.INSTANCE;

	@ParameterizedTest
	@ValueSource(strings = { "", "plain ascii", "café", "日本語", "emoji 😀 and more", "\u0000nul" })
	void writesTheSameBytesAsStringGetBytes(String value) {
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.encode(this.format, value)).as(kind.name()).isEqualTo(value.getBytes(StandardCharsets.UTF_8));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "plain ascii", "café", "日本語", "emoji 😀 and more" })
	void readsBackOnEveryKindOfBuffer(String value) {
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.with(bytes, this.format::decode)).as(kind.name()).isEqualTo(value);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "café", "plain" })
	void estimateIsExact(String value) {
		assertThat(this.format.estimateSize(value)).isEqualTo(value.getBytes(StandardCharsets.UTF_8).length);
		assertThat(this.format.isEstimateExact()).isTrue();
	}

	@ParameterizedTest
	@EnumSource(Buffers.class)
	void malformedUtf8IsRefused(Buffers kind) {
		byte[] bytes = { 'a', (byte) 0xC3, 'b' };
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> kind.with(bytes, this.format::decode))
			.withMessageStartingWith("string:")
			.withMessageContaining("not well-formed UTF-8");
	}

	@ParameterizedTest
	@EnumSource(Buffers.class)
	void headerByteIsRefused(Buffers kind) {
		byte[] bytes = { (byte) 0xF8, 1, 'a' };
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> kind.with(bytes, this.format::decode))
			.withMessageStartingWith("string:");
	}

}
