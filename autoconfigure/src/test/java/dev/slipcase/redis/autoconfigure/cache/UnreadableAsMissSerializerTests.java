package dev.slipcase.redis.autoconfigure.cache;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.TypeAllowlist;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

class UnreadableAsMissSerializerTests {

	private final RedisSerializer<Object> delegate = SlipcaseSerializers
		.json(TypeAllowlist.builder().allow("text", String.class).build());

	private final UnreadableAsMissSerializer serializer = new UnreadableAsMissSerializer(this.delegate, "orders");

	@Test
	void readsWhatTheDelegateReads() {
		assertThat(this.serializer.deserialize(this.delegate.serialize("value"))).isEqualTo("value");
	}

	@Test
	void writesWhatTheDelegateWrites() {
		assertThat(this.serializer.serialize("value")).isEqualTo(this.delegate.serialize("value"));
	}

	@Test
	void readsAJdkSerializedValueAsNull() {
		assertThat(this.serializer.deserialize(new JdkSerializationRedisSerializer().serialize("old"))).isNull();
	}

	@Test
	void readsATypeOutsideTheAllowlistAsNull() {
		assertThat(this.serializer.deserialize("[\"other\",1]".getBytes(StandardCharsets.UTF_8))).isNull();
	}

}
