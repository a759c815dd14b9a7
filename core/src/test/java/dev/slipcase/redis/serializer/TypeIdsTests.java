package dev.slipcase.redis.serializer;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.type.TypeFactory;

import static org.assertj.core.api.Assertions.assertThat;

class TypeIdsTests {

	private static final TypeFactory types = TypeFactory.createDefaultInstance();

	@Test
	void aClassIsNamedRelativeToItsPackage() {
		assertThat(TypeIds.of(types.constructType(Outer.Inner.class))).isEqualTo("TypeIdsTests.Outer.Inner");
		assertThat(TypeIds.of(types.constructType(String.class))).isEqualTo("String");
	}

	@Test
	void aGenericTypeNamesItsArguments() {
		JavaType type = types.constructType(new TypeReference<Map<String, List<Outer>>>() {
		});
		assertThat(TypeIds.of(type)).isEqualTo("Map-String-List-TypeIdsTests.Outer");
	}

	@Test
	void anArrayIsNamedAfterItsElements() {
		assertThat(TypeIds.of(types.constructType(Outer[].class))).isEqualTo("TypeIdsTests.Outer-array");
	}

	@Test
	void longIdsAreCutWithAHashAndStayValid() {
		JavaType type = types.constructType(
				new TypeReference<Map<Map<String, List<Outer.Inner>>, Map<String, List<Outer.Inner>>>>() {
				});
		String id = TypeIds.of(type);
		assertThat(id).hasSize(64).matches("[A-Za-z0-9_.:-]{1,64}");
		assertThat(TypeIds.distinct(type)).hasSize(64).isNotEqualTo(id);
	}

	@Test
	void aDistinctIdDiffersFromThePlainOne() {
		JavaType type = types.constructType(Outer.class);
		assertThat(TypeIds.distinct(type)).startsWith("TypeIdsTests.Outer:").hasSize("TypeIdsTests.Outer".length() + 9);
	}

	static class Outer {

		static class Inner {

		}

	}

}
