package dev.slipcase.redis.serializer.protostuff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.TestValues.Node;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Page;
import dev.slipcase.redis.serializer.TestValues.Percentage;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.TestValues;
import dev.slipcase.redis.serializer.json.JsonFormat;
import io.protostuff.runtime.RuntimeSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProtostuffFormatTests {

	private final ProtostuffFormat<Order> format = ProtostuffFormat.of(Order.class);

	@Test
	void protostuffsOwnRuntimeSchemaCannotHandleRecords() {
		assertThatThrownBy(() -> RuntimeSchema.getSchema(Session.class))
			.isInstanceOf(UnsupportedOperationException.class)
			.hasMessageContaining("record");
	}

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
	void roundTripsNullComponentsNullElementsAndEmptyOptionals() {
		Order order = TestValues.orderWithNulls(2);
		Order read = Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(this.format, order), this.format::decode);
		assertThat(read).isEqualTo(order);
		assertThat(read.lines()).hasSize(2).last().isNull();
		assertThat(read.lines().get(0).tags()).containsExactly("a", null, "b");
		assertThat(read.note()).isEmpty();
		assertThat(read.priority()).isNull();
	}

	@Test
	void keepsEmptyCollectionsDistinctFromNull() {
		ProtostuffFormat<Holder> holders = ProtostuffFormat.of(Holder.class);
		Holder empty = new Holder(List.of(), null, Map.of());
		Holder read = Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(holders, empty), holders::decode);
		assertThat(read.items()).isEmpty();
		assertThat(read.others()).isNull();
		assertThat(read.scores()).isEmpty();
	}

	@Test
	void roundTripsSortedMapsAndMapsOfRecords() {
		ProtostuffFormat<Holder> holders = ProtostuffFormat.of(Holder.class);
		TreeMap<String, Session> scores = new TreeMap<>(Map.of("b", TestValues.session(2), "a", TestValues.session(1)));
		Holder holder = new Holder(List.of("x"), new ArrayList<>(Arrays.asList(Optional.of(1).get(), null)), scores);
		assertThat(Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(holders, holder), holders::decode))
			.isEqualTo(holder);
	}

	@Test
	void roundTripsGenericRecordsThroughATypeReference() {
		ProtostuffFormat<Page<Session>> pages = ProtostuffFormat.of(new TypeReference<Page<Session>>() {
		});
		Page<Session> page = new Page<>(List.of(TestValues.session(1), TestValues.session(2)), 3, TestValues.session(7));
		assertThat(Buffers.COMPOSITE_DIRECT.with(Buffers.COMPOSITE_DIRECT.encode(pages, page), pages::decode))
			.isEqualTo(page);
	}

	@Test
	void roundTripsATopLevelList() {
		ProtostuffFormat<List<Session>> lists = ProtostuffFormat.of(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2), TestValues.session(3));
		assertThat(Buffers.POOLED_DIRECT.with(Buffers.POOLED_DIRECT.encode(lists, sessions), lists::decode))
			.isEqualTo(sessions);
	}

	@Test
	void roundTripsRecursiveRecords() {
		ProtostuffFormat<Node> nodes = ProtostuffFormat.of(Node.class);
		Node tree = new Node("root", List.of(new Node("a", List.of()), new Node("b", List.of(new Node("c", List.of())))));
		assertThat(Buffers.POOLED_HEAP.with(Buffers.POOLED_HEAP.encode(nodes, tree), nodes::decode)).isEqualTo(tree);
	}

	@Test
	void isSmallerThanJson() {
		Order order = TestValues.order(1);
		int protostuff = Buffers.UNPOOLED_HEAP.encode(this.format, order).length;
		int json = Buffers.UNPOOLED_HEAP.encode(JsonFormat.of(Order.class), order).length;
		assertThat(protostuff).isLessThan(json * 6 / 10);
	}

	@Test
	void recordValidationRunsOnRead() {
		ProtostuffFormat<Holder2> valid = ProtostuffFormat.of(Holder2.class);
		ProtostuffFormat<Holder3> raw = ProtostuffFormat.of(Holder3.class);
		byte[] bytes = Buffers.UNPOOLED_HEAP.encode(raw, new Holder3(new Unchecked(150)));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, valid::decode))
			.withMessageStartingWith("protostuff:")
			.withMessageContaining("percentage out of range: 150");
	}

	@Test
	void unsupportedComponentTypesAreNamedAtCreation() {
		assertThatIllegalArgumentException().isThrownBy(() -> ProtostuffFormat.of(WithObject.class))
			.withMessageContaining("WithObject")
			.withMessageContaining("java.lang.Object");
	}

	@Test
	void theReusedLinkedBufferHandlesValuesLargerThanItself() {
		ProtostuffFormat<List<Session>> lists = ProtostuffFormat.of(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			sessions.add(TestValues.session(i));
		}
		byte[] bytes = Buffers.POOLED_DIRECT.encode(lists, sessions);
		assertThat(bytes.length).isGreaterThan(20_000);
		assertThat(Buffers.POOLED_HEAP.with(bytes, lists::decode)).isEqualTo(sessions);
		assertThat(Buffers.POOLED_HEAP.encode(lists, sessions)).isEqualTo(bytes);
	}

	@Test
	void recordsMayGainComponentsAtTheEnd() {
		byte[] old = Buffers.POOLED_HEAP.encode(ProtostuffFormat.of(Version1.class), new Version1("a", 7));
		Version2 read = Buffers.POOLED_HEAP.with(old, ProtostuffFormat.of(Version2.class)::decode);
		assertThat(read).isEqualTo(new Version2("a", 7, null, 0));
	}

	@Test
	void olderReadersSkipComponentsTheyDoNotKnow() {
		byte[] newer = Buffers.POOLED_HEAP.encode(ProtostuffFormat.of(Version2.class), new Version2("a", 7, List.of("x"), 3));
		assertThat(Buffers.POOLED_DIRECT.with(newer, ProtostuffFormat.of(Version1.class)::decode))
			.isEqualTo(new Version1("a", 7));
	}

	record Version1(String name, int count) {
	}

	record Version2(String name, int count, List<String> tags, long total) {
	}

	record Holder(List<String> items, List<Integer> others, Map<String, Session> scores) {
	}

	record Holder2(Percentage percentage) {
	}

	record Unchecked(int value) {
	}

	record Holder3(Unchecked percentage) {
	}

	record WithObject(Object anything) {
	}

}
