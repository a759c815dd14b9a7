package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.buffer.AllocatorType;
import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SlipcaseRedisSerializerTests {

	@Test
	void nullSerializesToAnEmptyArray() {
		assertThat(SlipcaseSerializers.json(Order.class).serialize(null)).isEmpty();
		assertThat(SlipcaseSerializers.string().serialize(null)).isEmpty();
	}

	@Test
	void emptyArrayAndNullDeserializeToNull() {
		assertThat(SlipcaseSerializers.json(Order.class).deserialize(new byte[0])).isNull();
		assertThat(SlipcaseSerializers.protostuff(Order.class).deserialize(null)).isNull();
		assertThat(SlipcaseSerializers.longs().deserialize(new byte[0])).isNull();
	}

	@Test
	void emptyArrayDeserializesToTheEmptyStringLikeStringRedisSerializer() {
		assertThat(SlipcaseSerializers.string().deserialize(new byte[0])).isEmpty();
	}

	@Test
	void jsonRoundTrips() {
		SlipcaseRedisSerializer<Order> serializer = SlipcaseSerializers.json(Order.class);
		assertThat(serializer.deserialize(serializer.serialize(TestValues.order(1)))).isEqualTo(TestValues.order(1));
		assertThat(serializer.getTargetType()).isEqualTo(Order.class);
	}

	@Test
	void genericJsonRoundTrips() {
		SlipcaseRedisSerializer<List<Session>> serializer = SlipcaseSerializers.json(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = List.of(TestValues.session(1), TestValues.session(2));
		assertThat(serializer.deserialize(serializer.serialize(sessions))).isEqualTo(sessions);
	}

	@Test
	void protostuffRoundTrips() {
		SlipcaseRedisSerializer<Order> serializer = SlipcaseSerializers.protostuff(Order.class);
		assertThat(serializer.deserialize(serializer.serialize(TestValues.order(1)))).isEqualTo(TestValues.order(1));
	}

	@Test
	void numbersAreDecimalText() {
		assertThat(new String(SlipcaseSerializers.longs().serialize(-42L), StandardCharsets.US_ASCII)).isEqualTo("-42");
		assertThat(SlipcaseSerializers.integers().deserialize("7".getBytes(StandardCharsets.US_ASCII))).isEqualTo(7);
		assertThat(SlipcaseSerializers.doubles().deserialize(SlipcaseSerializers.doubles().serialize(2.5))).isEqualTo(2.5);
		assertThat(SlipcaseSerializers.decimals().serialize(new BigDecimal("1.10")))
			.isEqualTo("1.10".getBytes(StandardCharsets.US_ASCII));
	}

	@Test
	void bytesPassThrough() {
		byte[] bytes = { (byte) 0xFF, 0, 1 };
		assertThat(SlipcaseSerializers.bytes().serialize(bytes)).isEqualTo(bytes);
		assertThat(SlipcaseSerializers.bytes().deserialize(bytes)).isEqualTo(bytes).isNotSameAs(bytes);
	}

	@Test
	void exactFormatsWriteStraightIntoTheResult() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		SlipcaseRedisSerializer<String> serializer = SlipcaseSerializers.string().withAllocator(allocator);
		assertThat(serializer.serialize("héllo")).isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
		assertThat(allocator.handedOut()).isZero();
	}

	@Test
	void scratchBufferIsTakenFromTheAllocatorAndReleased() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		SlipcaseRedisSerializer<Order> serializer = SlipcaseSerializers.json(Order.class).withAllocator(allocator);
		serializer.serialize(TestValues.order(1));
		assertThat(allocator.handedOut()).isEqualTo(1);
		assertThat(allocator.allReleased()).isTrue();
	}

	@Test
	void scratchBufferIsReleasedWhenEncodingFails() {
		RecordingAllocator allocator = new RecordingAllocator(false);
		SlipcaseRedisSerializer<Session> serializer = SlipcaseRedisSerializer
			.of(new FailingFormat(), Session.class, allocator);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> serializer.serialize(TestValues.session(1)))
			.withMessage("failing: on purpose");
		assertThat(allocator.handedOut()).isEqualTo(1);
		assertThat(allocator.allReleased()).isTrue();
	}

	@ParameterizedTest
	@EnumSource(AllocatorType.class)
	void roundTripsWithEveryAllocatorHeapOrDirect(AllocatorType type) {
		for (boolean direct : new boolean[] { true, false }) {
			SlipcaseRedisSerializer<Order> json = SlipcaseSerializers.json(Order.class)
				.withAllocator(BufferAllocators.allocator(type, direct));
			SlipcaseRedisSerializer<Order> protostuff = SlipcaseSerializers.protostuff(Order.class)
				.withAllocator(BufferAllocators.allocator(type, direct));
			assertThat(json.deserialize(json.serialize(TestValues.order(1)))).isEqualTo(TestValues.order(1));
			assertThat(protostuff.deserialize(protostuff.serialize(TestValues.order(1)))).isEqualTo(TestValues.order(1));
		}
	}

	@Test
	void trailingBytesAreRefused() {
		byte[] bytes = SlipcaseSerializers.protostuff(Session.class).serialize(TestValues.session(1));
		byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> SlipcaseSerializers.protostuff(Session.class).deserialize(longer))
			.withMessageStartingWith("protostuff:");
	}

}
