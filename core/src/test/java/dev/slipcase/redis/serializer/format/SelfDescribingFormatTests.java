package dev.slipcase.redis.serializer.format;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.DeflateCompressor;
import dev.slipcase.redis.serializer.FailingFormat;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.serializer.TestValues.Order;
import dev.slipcase.redis.serializer.TestValues.Session;
import dev.slipcase.redis.serializer.TestValues;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.protostuff.ProtostuffFormat;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SelfDescribingFormatTests {

	private final DeflateCompressor deflate = new DeflateCompressor();

	@Test
	void uncompressedJsonHasNoHeader() {
		SelfDescribingFormat<Session> format = SelfDescribingFormat.of(JsonFormat.of(Session.class));
		byte[] bytes = Buffers.POOLED_HEAP.encode(format, TestValues.session(1));
		assertThat(bytes[0]).isEqualTo((byte) '{');
	}

	@Test
	void protostuffAlwaysHasAHeader() {
		SelfDescribingFormat<Session> format = SelfDescribingFormat.of(ProtostuffFormat.of(Session.class));
		byte[] bytes = Buffers.POOLED_HEAP.encode(format, TestValues.session(1));
		assertThat(bytes[0] & 0xFF).isEqualTo(0xF8);
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.PROTOSTUFF);
		assertThat(Buffers.POOLED_DIRECT.with(bytes, format::decode)).isEqualTo(TestValues.session(1));
	}

	@Test
	void compressedValuesCarryTheCompressorId() {
		SelfDescribingFormat<Order> format = SelfDescribingFormat.builder(JsonFormat.of(Order.class))
			.compression(this.deflate, 16)
			.build();
		byte[] bytes = Buffers.POOLED_DIRECT.encode(format, TestValues.order(1));
		assertThat(bytes[0] & 0xFF).isEqualTo(0xF8 | 7);
		assertThat(bytes[1]).isEqualTo((byte) FormatHeader.JSON);
		assertThat(format.name()).isEqualTo("json+deflate");
		for (Buffers kind : Buffers.all()) {
			assertThat(kind.with(bytes, format::decode)).isEqualTo(TestValues.order(1));
		}
	}

	@Test
	void valuesBelowTheMinimumSizeAreStoredUncompressed() {
		SelfDescribingFormat<Session> format = SelfDescribingFormat.builder(JsonFormat.of(Session.class))
			.compression(this.deflate, 10_000)
			.build();
		byte[] bytes = Buffers.POOLED_HEAP.encode(format, TestValues.session(1));
		assertThat(bytes[0]).isEqualTo((byte) '{');
		assertThat(Buffers.POOLED_HEAP.with(bytes, format::decode)).isEqualTo(TestValues.session(1));
	}

	@Test
	void valuesThatDoNotShrinkAreStoredUncompressed() {
		SelfDescribingFormat<String> format = SelfDescribingFormat.builder(Utf8StringFormat.INSTANCE)
			.compression(this.deflate, 0)
			.build();
		byte[] bytes = Buffers.POOLED_HEAP.encode(format, "xy");
		assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("xy");
	}

	@Test
	void readsOldUncompressedValuesAfterCompressionIsSwitchedOn() {
		byte[] old = Buffers.POOLED_HEAP.encode(SelfDescribingFormat.of(JsonFormat.of(Order.class)), TestValues.order(1));
		SelfDescribingFormat<Order> now = SelfDescribingFormat.builder(JsonFormat.of(Order.class))
			.compression(this.deflate, 0)
			.build();
		assertThat(Buffers.POOLED_HEAP.with(old, now::decode)).isEqualTo(TestValues.order(1));
	}

	@Test
	void readsOldJsonAfterSwitchingToProtostuff() {
		byte[] old = Buffers.POOLED_HEAP.encode(SelfDescribingFormat.of(JsonFormat.of(Order.class)), TestValues.order(1));
		SelfDescribingFormat<Order> now = SelfDescribingFormat.builder(ProtostuffFormat.of(Order.class))
			.readAlso(JsonFormat.of(Order.class))
			.build();
		assertThat(Buffers.POOLED_DIRECT.with(old, now::decode)).isEqualTo(TestValues.order(1));
	}

	@Test
	void readsValuesWrittenWithAnOldCompressorStillRegistered() {
		DeflateCompressor old = new DeflateCompressor(5, "old-deflate");
		byte[] bytes = Buffers.POOLED_HEAP.encode(
				SelfDescribingFormat.builder(JsonFormat.of(Order.class)).compression(old, 0).build(), TestValues.order(1));
		SelfDescribingFormat<Order> now = SelfDescribingFormat.builder(JsonFormat.of(Order.class))
			.compression(this.deflate, 0)
			.compressors(CompressorLookup.of(old))
			.build();
		assertThat(bytes[0] & 0xFF).isEqualTo(0xF8 | 5);
		assertThat(Buffers.POOLED_HEAP.with(bytes, now::decode)).isEqualTo(TestValues.order(1));
	}

	@Test
	void unknownCompressorIsNamedInTheError() {
		byte[] bytes = Buffers.POOLED_HEAP.encode(
				SelfDescribingFormat.builder(JsonFormat.of(Order.class)).compression(this.deflate, 0).build(),
				TestValues.order(1));
		SelfDescribingFormat<Order> plain = SelfDescribingFormat.of(JsonFormat.of(Order.class));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, plain::decode))
			.withMessage("json: value is compressed with compressor id 7, which is not registered; registered: []");
	}

	@Test
	void formatThisSerializerDoesNotReadIsNamedInTheError() {
		byte[] bytes = Buffers.POOLED_HEAP.encode(SelfDescribingFormat.of(ProtostuffFormat.of(Session.class)),
				TestValues.session(1));
		SelfDescribingFormat<Session> json = SelfDescribingFormat.of(JsonFormat.of(Session.class));
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, json::decode))
			.withMessageContaining("format id 4 (protostuff), which this serializer does not read; it reads [json]");
	}

	@Test
	void reservedHeaderVersionsAreRefused() {
		SelfDescribingFormat<Session> format = SelfDescribingFormat.of(ProtostuffFormat.of(Session.class));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(new byte[] { (byte) 0xF5, 4, 0 }, format::decode))
			.withMessageContaining("unsupported header version 0xF5");
	}

	@Test
	void binaryFormatsRefuseValuesWithoutAHeader() {
		SelfDescribingFormat<Session> format = SelfDescribingFormat.of(ProtostuffFormat.of(Session.class));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with("{}".getBytes(StandardCharsets.UTF_8), format::decode))
			.withMessageContaining("no Slipcase header");
	}

	@Test
	void decompressionIsCappedAtTheConfiguredSize() {
		ProtostuffFormat<List<Session>> lists = ProtostuffFormat.of(new TypeReference<List<Session>>() {
		});
		List<Session> sessions = java.util.stream.IntStream.range(0, 500).mapToObj(TestValues::session).toList();
		byte[] bytes = Buffers.POOLED_HEAP
			.encode(SelfDescribingFormat.builder(lists).compression(this.deflate, 0).build(), sessions);
		SelfDescribingFormat<List<Session>> capped = SelfDescribingFormat.builder(lists)
			.compression(this.deflate, 0)
			.maxDecompressedSize(1024)
			.build();
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(bytes, capped::decode))
			.withMessageContaining("over the cap of 1024");
	}

	@Test
	void scratchBuffersAreReleasedWhenEncodingFails() {
		RecordingAllocator allocator = new RecordingAllocator(true);
		SelfDescribingFormat<Session> format = SelfDescribingFormat.builder(new FailingFormat())
			.compression(this.deflate, 0)
			.allocator(allocator)
			.build();
		ByteBuf out = Buffers.POOLED_HEAP.empty();
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> format.encode(TestValues.session(1), out));
		}
		finally {
			out.release();
		}
		assertThat(allocator.handedOut()).isPositive();
		assertThat(allocator.allReleased()).isTrue();
	}

	@Test
	void scratchBuffersAreReleasedWhenDecompressionFails() {
		RecordingAllocator allocator = new RecordingAllocator(false);
		SelfDescribingFormat<Order> format = SelfDescribingFormat.builder(JsonFormat.of(Order.class))
			.compression(this.deflate, 0)
			.allocator(allocator)
			.build();
		byte[] corrupt = { (byte) 0xFF, FormatHeader.JSON, 0, 0, 0, 100, 1, 2, 3 };
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> Buffers.POOLED_HEAP.with(corrupt, format::decode))
			.withMessageStartingWith("json+deflate: cannot decompress a json value with deflate");
		assertThat(allocator.handedOut()).isPositive();
		assertThat(allocator.allReleased()).isTrue();
	}

}
