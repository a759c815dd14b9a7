package dev.slipcase.redis.serializer;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.serializer.family.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** {@link SlipcaseSerializerFamily#formatFor}: the format of a cache whose methods return given types. */
class SlipcaseSerializerFamilyFormatForTests {

	private final SlipcaseSerializerFamily family = SlipcaseSerializerFamily.builder()
		.allow("circle", Circle.class)
		.allow("square", Square.class)
		.build();

	@Test
	void oneConcreteTypeIsPlainJsonWithNoTag() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(Circle.class));
		byte[] bytes = serializer.serialize(new Circle(2));
		assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"radius\":2.0}");
		assertThat(serializer.deserialize(bytes)).isEqualTo(new Circle(2));
	}

	@Test
	void oneGenericTypeReadsBackItsTypeArguments() {
		Type type = new TypeReference<Map<String, List<Circle>>>() {
		}.getType();
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(type));
		Object read = serializer.deserialize(serializer.serialize(Map.of("a", List.of(new Circle(1)))));
		assertThat(read).isEqualTo(Map.of("a", List.of(new Circle(1))));
		assertThat(((Map<?, ?>) read).get("a")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
			.first()
			.isInstanceOf(Circle.class);
	}

	@Test
	void aStringIsBareText() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(String.class));
		assertThat(serializer.serialize("hello")).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
		assertThat(serializer.deserialize("hello".getBytes(StandardCharsets.UTF_8))).isEqualTo("hello");
	}

	@Test
	void severalTypesAreTaggedWithTheirAllowlistIdsOrIdsFromTheirNames() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(Circle.class, Order.class));
		assertThat(new String(serializer.serialize(new Circle(1)), StandardCharsets.UTF_8))
			.isEqualTo("[\"circle\",{\"radius\":1.0}]");
		byte[] order = serializer.serialize(Order.sample(3, null));
		assertThat(new String(order, StandardCharsets.UTF_8)).startsWith("[\"Order\",{");
		assertThat(serializer.deserialize(order)).isEqualTo(Order.sample(3, null));
	}

	@Test
	void severalTypesReadOnlyTheirOwnIds() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(Circle.class, Order.class));
		byte[] square = this.family.valueSerializer().serialize(new Square(1));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> serializer.deserialize(square))
			.withMessageContaining("'square' is not in the allowlist");
	}

	@Test
	void anInterfaceReadsTheAllowedTypesThatImplementIt() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(Shape.class));
		assertThat(serializer.deserialize(serializer.serialize(new Square(2)))).isEqualTo(new Square(2));
		assertThat(new String(serializer.serialize(new Circle(1)), StandardCharsets.UTF_8)).startsWith("[\"circle\",");
	}

	@Test
	void anInterfaceNoAllowedTypeImplementsCannotBeStored() {
		assertThatIllegalArgumentException().isThrownBy(() -> serializer(List.of(Runnable.class)))
			.withMessage("java.lang.Runnable is an interface and no allowed value type implements it, so a stored "
					+ "value could not be read back as any class");
	}

	@Test
	void aCollectionOfAnInterfaceCannotBeStoredAsPlainJson() {
		Type type = new TypeReference<List<Shape>>() {
		}.getType();
		assertThatIllegalArgumentException().isThrownBy(() -> serializer(List.of(type)))
			.withMessageContaining("holds values of " + Shape.class.getName() + ", which is an interface");
	}

	@Test
	void objectReadsEveryAllowedType() {
		SlipcaseRedisSerializer<Object> serializer = serializer(List.of(Object.class));
		assertThat(serializer.deserialize(serializer.serialize(new Square(5)))).isEqualTo(new Square(5));
	}

	private SlipcaseRedisSerializer<Object> serializer(List<Type> types) {
		return SlipcaseRedisSerializer.of(this.family.formatFor(types, null, null), Object.class);
	}

	interface Shape {

	}

	record Circle(double radius) implements Shape {
	}

	record Square(double side) implements Shape {
	}

}
