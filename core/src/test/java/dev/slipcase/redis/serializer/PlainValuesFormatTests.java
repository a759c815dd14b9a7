package dev.slipcase.redis.serializer;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.serializer.GenericJacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link PlainValuesFormat}: what each stored shape an {@code Object} template may meet
 * reads back as (the table in {@code docs/configuration.md}), on heap and direct, pooled and
 * unpooled buffers; and that what is none of them, a cut tagged value or a JSON string cut short,
 * bytes that are not text, fails instead of reading as text.
 */
class PlainValuesFormatTests {

	private final TypeAllowlist allowlist = TypeAllowlist.builder().allow("order", Order.class).build();

	private final PlainValuesFormat format = PlainValuesFormat.of(FormatRouter.builder().build().format(this.allowlist));

	@Test
	void readsRedisCountersAsLongsAndFloatCountersAsDoubles() {
		assertThat(read("42")).isEqualTo(42L);
		assertThat(read("-7")).isEqualTo(-7L);
		assertThat(read("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
		assertThat(read("10.5")).isEqualTo(10.5);
		assertThat(read("1e3")).isEqualTo(1000.0);
		assertThat(read("92233720368547758070")).isEqualTo(new BigInteger("92233720368547758070"));
	}

	@Test
	void readsWhatSpringsJsonSerializerWroteForStringsNumbersAndBooleans() {
		RedisSerializer<Object> json = GenericJacksonJsonRedisSerializer.builder().build();
		assertThat(read(json.serialize("hello"))).isEqualTo("hello");
		assertThat(read(json.serialize("say \"hi\"\n"))).isEqualTo("say \"hi\"\n");
		assertThat(read(json.serialize(42))).isEqualTo(42L);
		assertThat(read(json.serialize(42L))).isEqualTo(42L);
		assertThat(read(json.serialize(2.5))).isEqualTo(2.5);
		assertThat(read(json.serialize(true))).isEqualTo(true);
		assertThat(read(json.serialize(false))).isEqualTo(false);
	}

	@Test
	void readsOtherTextAsItsStringAndTheEmptyValueAsTheEmptyString() {
		assertThat(read("")).isEqualTo("");
		assertThat(read("hello")).isEqualTo("hello");
		assertThat(read("42 apples")).isEqualTo("42 apples");
		assertThat(read("042")).as("not a JSON number, nor an INCR counter").isEqualTo("042");
		assertThat(read("true story")).isEqualTo("true story");
		assertThat(read("null")).isEqualTo("null");
		assertThat(read("NaN")).isEqualTo("NaN");
		assertThat(read("grüße\tand\r\nlines")).isEqualTo("grüße\tand\r\nlines");
		assertThat(read("  ")).isEqualTo("  ");
		String digits = "1".repeat(65);
		assertThat(read(digits)).as("longer than a number is read as").isEqualTo(digits);
	}

	@Test
	void readsTaggedValuesThroughTheTemplatesFormat() {
		Order order = TestValues.order(1);
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.with(kind.encode(this.format, order), this.format::decode)).isEqualTo(order);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "[\"order\",{\"id\":4", "[\"order\"", "{\"id\":1}", "[1,2]", "\"hel", "\"a\" \"b\"" })
	void aValueThatStartsAsJsonButIsNotATaggedValueOrAJsonStringFails(String value) {
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> read(value));
	}

	@Test
	void bytesThatAreNotTextFailInsteadOfReadingAsAString() {
		byte[] binary = { (byte) 0x80, 0x01, 0x02, (byte) 0xC3 };
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> read(binary))
			.withMessageContaining("neither a tagged value nor UTF-8 text");
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> read("abc\u0001def"))
			.withMessageContaining("control character 0x1");
		byte[] jdk = { (byte) 0xAC, (byte) 0xED, 0x00, 0x05, 0x74, 0x00, 0x01, 0x61 };
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> read(jdk));
		byte[] reservedHeader = { (byte) 0xF5, 'x' };
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> read(reservedHeader));
	}

	@Test
	void writesAsTheTemplatesFormat() {
		byte[] written = Buffers.UNPOOLED_HEAP.encode(this.format, TestValues.order(2));
		assertThat(new String(written, StandardCharsets.UTF_8)).startsWith("[\"order\",{");
		assertThat(PlainValuesFormat.of(this.format)).isSameAs(this.format);
	}

	private Object read(String value) {
		return read(value.getBytes(StandardCharsets.UTF_8));
	}

	private Object read(byte[] value) {
		Object first = null;
		for (Buffers kind : Buffers.all()) {
			Object read = kind.with(value, this.format::decode);
			if (first == null) {
				first = read;
			}
			assertThat(read).as(kind.name()).isEqualTo(first);
		}
		return first;
	}

}
