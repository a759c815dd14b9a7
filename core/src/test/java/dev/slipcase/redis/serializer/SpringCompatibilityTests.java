package dev.slipcase.redis.serializer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.serializer.GenericJacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Values written by Spring Data's stock serializers, read by Slipcase's (and back, where it makes sense). */
class SpringCompatibilityTests {

	@Test
	void readsStringRedisSerializerValues() {
		byte[] bytes = StringRedisSerializer.UTF_8.serialize("grüße 😀");
		assertThat(SlipcaseSerializers.string().deserialize(bytes)).isEqualTo("grüße 😀");
	}

	@Test
	void writesWhatStringRedisSerializerReads() {
		byte[] bytes = SlipcaseSerializers.string().serialize("grüße 😀");
		assertThat(StringRedisSerializer.UTF_8.deserialize(bytes)).isEqualTo("grüße 😀");
	}

	@Test
	void readsJacksonJsonRedisSerializerValues() {
		byte[] bytes = new JacksonJsonRedisSerializer<>(Order.class).serialize(TestValues.order(1));
		assertThat(SlipcaseSerializers.json(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(1));
	}

	@Test
	void writesWhatJacksonJsonRedisSerializerReads() {
		byte[] bytes = SlipcaseSerializers.json(Order.class).serialize(TestValues.order(1));
		assertThat(new JacksonJsonRedisSerializer<>(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(1));
	}

	@Test
	void readsGenericJacksonJsonRedisSerializerRecords() {
		byte[] bytes = RedisSerializer.json().serialize(TestValues.order(1));
		assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"@class\":\"" + Order.class.getName() + "\"")
			.contains("[\"java.util.ArrayList\",[");
		assertThat(SlipcaseSerializers.json(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(1));
	}

	@Test
	void readsGenericJacksonJsonRedisSerializerRecordsWithNulls() {
		byte[] bytes = RedisSerializer.json().serialize(TestValues.orderWithNulls(2));
		assertThat(SlipcaseSerializers.json(Order.class).deserialize(bytes)).isEqualTo(TestValues.orderWithNulls(2));
	}

	@Test
	void readsGenericJacksonJsonRedisSerializerLists() {
		List<Session> sessions = new ArrayList<>(List.of(TestValues.session(1), TestValues.session(2)));
		byte[] bytes = RedisSerializer.json().serialize(sessions);
		assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("[\"java.util.ArrayList\",[");
		assertThat(SlipcaseSerializers.json(new TypeReference<List<Session>>() {
		}).deserialize(bytes)).isEqualTo(sessions);
	}

	@Test
	void readsGenericJacksonJsonRedisSerializerWithItsBuilderDefaults() {
		GenericJacksonJsonRedisSerializer serializer = GenericJacksonJsonRedisSerializer.builder()
			.enableUnsafeDefaultTyping()
			.build();
		byte[] bytes = serializer.serialize(TestValues.session(3));
		assertThat(SlipcaseSerializers.json(Session.class).deserialize(bytes)).isEqualTo(TestValues.session(3));
	}

	@Test
	void refusesClassNamesOutsideTheDeclaredTypesInSpringTypedJson() {
		String hostile = "{\"@class\":\"" + Holder.class.getName() + "\",\"value\":[\"java.net.URL\",\"http://example.com\"]}";
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> SlipcaseSerializers.json(Holder.class).deserialize(hostile.getBytes(StandardCharsets.UTF_8)))
			.withMessageStartingWith("json: cannot decode value")
			.withMessageContaining("java.net.URL");
	}

	@Test
	void readsPlainJsonWrittenWithAnotherMapperConfiguration() {
		JsonMapper mapper = JsonMapper.builder().build();
		byte[] bytes = mapper.writeValueAsBytes(TestValues.order(4));
		assertThat(SlipcaseSerializers.json(Order.class).deserialize(bytes)).isEqualTo(TestValues.order(4));
	}

	record Holder(Object value) {
	}

}
