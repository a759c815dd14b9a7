package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class NumberFormatTests {

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, -1, 42, Long.MAX_VALUE, Long.MIN_VALUE })
	void longsAreDecimalAscii(long value) {
		for (Buffers kind : Buffers.all()) {
			byte[] bytes = kind.encode(NumberFormat.LONG, value);
			assertThat(new String(bytes, StandardCharsets.US_ASCII)).isEqualTo(Long.toString(value));
			assertThat(kind.with(bytes, NumberFormat.LONG::decode)).isEqualTo(value);
		}
	}

	@Test
	void integersRoundTrip() {
		assertThat(Buffers.POOLED_DIRECT.with("-2147483648".getBytes(StandardCharsets.US_ASCII),
				NumberFormat.INTEGER::decode)).isEqualTo(Integer.MIN_VALUE);
	}

	@Test
	void doublesRoundTripExactly() {
		double value = 0.1 + 0.2;
		byte[] bytes = Buffers.POOLED_HEAP.encode(NumberFormat.DOUBLE, value);
		assertThat(Buffers.POOLED_DIRECT.with(bytes, NumberFormat.DOUBLE::decode)).isEqualTo(value);
	}

	@Test
	void doublesReadWhatIncrByFloatWrites() {
		assertThat(Buffers.POOLED_HEAP.with("10.5".getBytes(StandardCharsets.US_ASCII), NumberFormat.DOUBLE::decode))
			.isEqualTo(10.5);
		assertThat(Buffers.POOLED_HEAP.with("5.0e3".getBytes(StandardCharsets.US_ASCII), NumberFormat.DOUBLE::decode))
			.isEqualTo(5000.0);
	}

	@Test
	void decimalsKeepTheirScaleInPlainNotation() {
		BigDecimal value = new BigDecimal("1E+3").add(new BigDecimal("0.50"));
		byte[] bytes = Buffers.POOLED_HEAP.encode(NumberFormat.BIG_DECIMAL, value);
		assertThat(new String(bytes, StandardCharsets.US_ASCII)).isEqualTo("1000.50");
		assertThat(Buffers.COMPOSITE_DIRECT.with(bytes, NumberFormat.BIG_DECIMAL::decode)).isEqualTo(value);
	}

	@Test
	void nonFiniteDoublesAreNotWritten() {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.encode(NumberFormat.DOUBLE, Double.NaN))
			.withMessageStartingWith("number-double:");
	}

	@ParameterizedTest
	@ValueSource(strings = { "12a", "1.5", " 1", "99999999999999999999", "-", "+1" })
	void nonIntegersAreRefused(String text) {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(text.getBytes(StandardCharsets.UTF_8), NumberFormat.LONG::decode))
			.withMessageStartingWith("number-long:");
	}

	@ParameterizedTest
	@ValueSource(strings = { "1e999", "NaN", "Infinity", "1..2", "0x10" })
	void nonFiniteOrMalformedDoublesAreRefused(String text) {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(text.getBytes(StandardCharsets.UTF_8), NumberFormat.DOUBLE::decode))
			.withMessageStartingWith("number-double:");
	}

	@Test
	void overlongValuesAreRefusedBeforeParsing() {
		byte[] bytes = "1".repeat(NumberFormat.MAX_LENGTH + 1).getBytes(StandardCharsets.US_ASCII);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, NumberFormat.BIG_DECIMAL::decode))
			.withMessageContaining("longer than");
	}

}
