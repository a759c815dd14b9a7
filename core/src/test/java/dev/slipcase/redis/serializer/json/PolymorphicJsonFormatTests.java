package dev.slipcase.redis.serializer.json;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.TestValues;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PolymorphicJsonFormatTests {

	private final PolymorphicJsonFormat format = PolymorphicJsonFormat.of(TypeAllowlist.builder()
		.allow("order", Order.class)
		.allow("session", Session.class)
		.allow("sessions", new TypeReference<List<Session>>() {
		})
		.build());

	@Test
	void writesTheShortTypeIdAndNoClassName() {
		String json = new String(Buffers.UNPOOLED_HEAP.encode(this.format, TestValues.session(1)), StandardCharsets.UTF_8);
		assertThat(json).startsWith("[\"session\",{").doesNotContain("dev.slipcase");
	}

	@Test
	void readsEachTypeBack() {
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.with(kind.encode(this.format, TestValues.order(1)), this.format::decode))
				.isEqualTo(TestValues.order(1));
			assertThat(kind.with(kind.encode(this.format, TestValues.session(2)), this.format::decode))
				.isEqualTo(TestValues.session(2));
		}
	}

	@Test
	void readsBackATypeIdWithADotAsItsOwnNotAsASpringClassName() {
		// a nested class's id ("Shop.Order") looks like the class name of Spring's ["a.B",{...}] wrapper
		PolymorphicJsonFormat nested = PolymorphicJsonFormat.of(TypeAllowlist.builder().allow("Shop.Order", Order.class).build());
		for (Buffers kind : Buffers.all()) {
			byte[] bytes = kind.encode(nested, TestValues.order(1));
			assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("[\"Shop.Order\",{");
			assertThat(kind.with(bytes, nested::decode)).isEqualTo(TestValues.order(1));
		}
	}

	@Test
	void writesAListUnderTheIdOfTheFirstAssignableType() {
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		byte[] bytes = Buffers.POOLED_HEAP.encode(this.format, sessions);
		assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("[\"sessions\",[");
		assertThat(Buffers.POOLED_DIRECT.with(bytes, this.format::decode)).isEqualTo(sessions);
	}

	@Test
	void typeOutsideTheAllowlistIsNotWritten() {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.encode(this.format, new StringBuilder("x")))
			.withMessageContaining("java.lang.StringBuilder is not in the allowlist");
	}

	@Test
	void idOutsideTheAllowlistIsRefused() {
		byte[] bytes = "[\"java.net.URL\",\"http://example.com\"]".getBytes(StandardCharsets.UTF_8);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, this.format::decode))
			.withMessageStartingWith("polymorphic-json:")
			.withMessageContaining("is not in the allowlist");
	}

	@Test
	void readsSpringGenericJsonOfAnAllowlistedType() {
		byte[] bytes = RedisSerializer.json().serialize(TestValues.order(3));
		assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"@class\"");
		assertThat(Buffers.POOLED_DIRECT.with(bytes, this.format::decode)).isEqualTo(TestValues.order(3));
	}

	@Test
	void refusesSpringGenericJsonOfATypeOutsideTheAllowlist() {
		byte[] bytes = RedisSerializer.json().serialize(new TestValues.Address("s", null, "c"));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, this.format::decode))
			.withMessageContaining("is not in the allowlist");
	}

	@Test
	void duplicateIdsAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TypeAllowlist.builder().allow("a", Order.class).allow("a", Session.class))
			.withMessageContaining("'a' is already allowed");
	}

	@Test
	void classNameLikeIdsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> TypeAllowlist.builder().allow("a b", Order.class))
			.withMessageContaining("id must be");
	}

}
