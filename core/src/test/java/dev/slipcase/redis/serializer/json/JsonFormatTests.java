package dev.slipcase.redis.serializer.json;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Page;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.TestValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class JsonFormatTests {

	private final JsonFormat<Order> format = JsonFormat.of(Order.class);

	@ParameterizedTest
	@EnumSource(Buffers.class)
	void roundTripsARecordOnEveryKindOfBuffer(Buffers kind) {
		Order order = TestValues.order(1);
		byte[] bytes = kind.encode(this.format, order);
		for (Buffers readKind : Buffers.all()) {
			assertThat(readKind.with(bytes, this.format::decode)).as(readKind.name()).isEqualTo(order);
		}
	}

	@Test
	void roundTripsNullsAndEmptyOptionals() {
		Order order = TestValues.orderWithNulls(2);
		assertThat(Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(this.format, order), this.format::decode))
			.isEqualTo(order);
	}

	@Test
	void writesNoClassNamesAndIsoInstants() {
		String json = new String(Buffers.UNPOOLED_HEAP.encode(this.format, TestValues.order(1)), StandardCharsets.UTF_8);
		assertThat(json).doesNotContain("@class", "dev.slipcase", "java.util")
			.contains("\"createdAt\":\"2026-05-01T10:15:30.123456789Z\"");
	}

	@Test
	void roundTripsGenericRecordsThroughATypeReference() {
		JsonFormat<Page<Session>> pages = JsonFormat.of(new TypeReference<Page<Session>>() {
		});
		Page<Session> page = new Page<>(List.of(TestValues.session(1), TestValues.session(2)), 3, TestValues.session(1));
		assertThat(Buffers.COMPOSITE_DIRECT.with(Buffers.COMPOSITE_DIRECT.encode(pages, page), pages::decode))
			.isEqualTo(page);
	}

	@Test
	void readsAdvanceTheReaderIndexToTheEnd() {
		byte[] bytes = Buffers.UNPOOLED_HEAP.encode(this.format, TestValues.order(1));
		for (Buffers kind : Buffers.all()) {
			int left = kind.with(bytes, (in) -> {
				this.format.decode(in);
				return in.readableBytes();
			});
			assertThat(left).isZero();
		}
	}

	@Test
	void jsonNullIsRefused() {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with("null".getBytes(StandardCharsets.US_ASCII), this.format::decode))
			.withMessageStartingWith("json:")
			.withMessageContaining("null");
	}

	@Test
	void truncatedJsonIsRefusedNamingTheFormat() {
		byte[] bytes = Buffers.UNPOOLED_HEAP.encode(this.format, TestValues.order(1));
		byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length / 2);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_DIRECT.with(truncated, this.format::decode))
			.withMessageStartingWith("json: cannot decode value");
	}

	@Test
	void trailingDataIsRefused() {
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> Buffers.POOLED_HEAP
			.with("{\"user\":\"u\",\"expiresAt\":\"2026-01-01T00:00:00Z\",\"flags\":1} {}".getBytes(StandardCharsets.UTF_8),
					JsonFormat.of(Session.class)::decode))
			.withMessageStartingWith("json:");
	}

	@Test
	void recordValidationRunsOnRead() {
		JsonFormat<TestValues.Percentage> percentages = JsonFormat.of(TestValues.Percentage.class);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with("{\"value\":150}".getBytes(StandardCharsets.UTF_8),
					percentages::decode))
			.withMessageStartingWith("json: cannot decode value")
			.withMessageContaining("percentage out of range: 150");
	}

	@Test
	void recordsWithNonPublicConstructorsRoundTrip() {
		JsonFormat<TestValues.Node> nodes = JsonFormat.of(TestValues.Node.class);
		TestValues.Node tree = new TestValues.Node("root", List.of(new TestValues.Node("leaf", List.of())));
		assertThat(Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(nodes, tree), nodes::decode)).isEqualTo(tree);
	}

	@Test
	void nullTypeIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFormat.of((Class<?>) null))
			.withMessage("type must not be null");
	}

}
