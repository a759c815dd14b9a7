package dev.slipcase.redis.metrics;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.buffer.BufferAllocators;
import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.FormatCodec;
import dev.slipcase.redis.codec.FormatDecoding;
import dev.slipcase.redis.serializer.json.JsonFormat;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.compression.Compressors;
import dev.slipcase.redis.template.ValueLease;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What the serializers, codecs, compression and leases report, seen by a counting observer. */
class SlipcaseObserversTests {

	record Item(String name, int quantity, List<String> tags) {
	}

	/** A record Jackson cannot write: its accessor throws. */
	record Broken(String name) {

		@Override
		public String name() {
			throw new IllegalStateException("no name today");
		}

	}

	private final CountingObserver observer = new CountingObserver();

	private SlipcaseObservers.Registration registration;

	@BeforeEach
	void register() {
		this.registration = SlipcaseObservers.register(this.observer);
	}

	@AfterEach
	void unregister() {
		this.registration.close();
	}

	@Test
	void withoutObserversTheCurrentOneIsTheNoop() {
		this.registration.close();
		assertThat(SlipcaseObservers.current()).isSameAs(SlipcaseObserver.NOOP);
	}

	@Test
	void serializerReportsBytesWrittenAndReadUnderTheFormatsName() {
		SlipcaseRedisSerializer<Item> serializer = SlipcaseSerializers.json(Item.class);
		byte[] bytes = serializer.serialize(new Item("pen", 3, List.of("blue")));
		serializer.deserialize(bytes);
		serializer.deserialize(bytes);
		assertThat(this.observer.count(this.observer.writes, "json")).isEqualTo(1);
		assertThat(this.observer.sum(this.observer.writtenBytes, "json")).isEqualTo(bytes.length);
		assertThat(this.observer.count(this.observer.reads, "json")).isEqualTo(2);
		assertThat(this.observer.sum(this.observer.readBytes, "json")).isEqualTo(2L * bytes.length);
	}

	@Test
	void exactSizeSerializerReportsBytesWritten() {
		byte[] bytes = SlipcaseSerializers.string().serialize("hello");
		assertThat(this.observer.sum(this.observer.writtenBytes, "string")).isEqualTo(bytes.length).isEqualTo(5);
	}

	@Test
	void nullValuesAreNotReported() {
		SlipcaseSerializers.string().serialize(null);
		SlipcaseSerializers.string().deserialize(new byte[0]);
		assertThat(this.observer.writes).isEmpty();
		assertThat(this.observer.reads).isEmpty();
	}

	@Test
	void corruptBytesAreReportedAsAReadError() {
		SlipcaseRedisSerializer<Item> serializer = SlipcaseSerializers.json(Item.class);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> serializer.deserialize("{\"name\": [".getBytes(StandardCharsets.UTF_8)));
		assertThat(this.observer.count(this.observer.failures, "json/read")).isEqualTo(1);
		assertThat(this.observer.reads).isEmpty();
	}

	@Test
	void unserializableValueIsReportedAsAWriteError() {
		SlipcaseRedisSerializer<Broken> serializer = SlipcaseSerializers.json(Broken.class);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> serializer.serialize(new Broken("x")));
		assertThat(this.observer.count(this.observer.failures, "json/write")).isEqualTo(1);
		assertThat(this.observer.writes).isEmpty();
	}

	@Test
	void compressionReportsTheBodyBeforeAndAfterPerCompressor() {
		SlipcaseRedisSerializer<String> serializer = SlipcaseSerializers.compressed(Utf8StringFormat.INSTANCE,
				Compressors.gzip(), 64);
		String text = "abcdefgh".repeat(200);
		byte[] bytes = serializer.serialize(text);
		assertThat(this.observer.count(this.observer.compressors, "gzip")).isEqualTo(1);
		int[] sizes = this.observer.compressions.get(0);
		assertThat(sizes[0]).isEqualTo(1600);
		assertThat(sizes[1]).isPositive().isLessThan(sizes[0]).isEqualTo(bytes.length - 2);
		assertThat(this.observer.sum(this.observer.writtenBytes, "string+gzip")).isEqualTo(bytes.length);
		assertThat(serializer.deserialize(bytes)).isEqualTo(text);
		assertThat(this.observer.sum(this.observer.readBytes, "string+gzip")).isEqualTo(bytes.length);
	}

	@Test
	void valuesBelowTheMinimumSizeAreNotCompressedNorReportedAsCompressed() {
		SlipcaseRedisSerializer<String> serializer = SlipcaseSerializers.compressed(Utf8StringFormat.INSTANCE,
				Compressors.gzip(), 64);
		serializer.serialize("short");
		assertThat(this.observer.compressions).isEmpty();
		assertThat(this.observer.count(this.observer.writes, "string+gzip")).isEqualTo(1);
	}

	@Test
	void leasesAreCountedOpenUntilClosedOnce() {
		ValueLease first = ValueLease.of(Unpooled.copiedBuffer("one", StandardCharsets.UTF_8));
		ValueLease second = ValueLease.of(Unpooled.copiedBuffer("two", StandardCharsets.UTF_8));
		assertThat(this.observer.openLeases).hasValue(2);
		first.close();
		first.close();
		assertThat(this.observer.openLeases).hasValue(1);
		second.close();
		assertThat(this.observer.openLeases).hasValue(0);
		assertThat(this.observer.leasesOpened).hasValue(2);
	}

	@Test
	void leaseOpenedBeforeRegistrationDoesNotUnbalanceTheCount() {
		this.registration.close();
		ValueLease early = ValueLease.of(Unpooled.copiedBuffer("early", StandardCharsets.UTF_8));
		this.registration = SlipcaseObservers.register(this.observer);
		early.close();
		assertThat(this.observer.openLeases).hasValue(0);
		assertThat(this.observer.leasesOpened).hasValue(0);
	}

	@Test
	void everyRegisteredObserverReceivesEveryEvent() {
		CountingObserver other = new CountingObserver();
		try (SlipcaseObservers.Registration second = SlipcaseObservers.register(other)) {
			SlipcaseSerializers.string().serialize("both");
			assertThat(second.observer()).isSameAs(other);
		}
		SlipcaseSerializers.string().serialize("first only");
		assertThat(this.observer.count(this.observer.writes, "string")).isEqualTo(2);
		assertThat(other.count(other.writes, "string")).isEqualTo(1);
	}

	@Test
	@SuppressWarnings("try")
	void withSeveralObserversEveryMethodOfTheSpiReachesEachOfThem() throws Exception {
		java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> calls = new java.util.concurrent.ConcurrentHashMap<>();
		SlipcaseObserver recording = (SlipcaseObserver) java.lang.reflect.Proxy.newProxyInstance(
				getClass().getClassLoader(), new Class<?>[] { SlipcaseObserver.class }, (proxy, method, args) -> {
					if (method.getDeclaringClass() == Object.class) {
						return (method.getName().equals("equals")) ? proxy == args[0]
								: method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "recording";
					}
					calls.computeIfAbsent(method.getName(), (name) -> new java.util.concurrent.atomic.AtomicInteger())
						.incrementAndGet();
					return null;
				});
		try (SlipcaseObservers.Registration second = SlipcaseObservers.register(recording)) {
			SlipcaseObserver composite = SlipcaseObservers.current();
			for (java.lang.reflect.Method method : SlipcaseObserver.class.getDeclaredMethods()) {
				if (method.isSynthetic() || java.lang.reflect.Modifier.isStatic(method.getModifiers())) {
					continue;
				}
				Object[] args = java.util.Arrays.stream(method.getParameterTypes())
					.map((type) -> (type == int.class) ? (Object) 1
							: (type == String.class) ? "x" : SlipcaseObserver.Operation.READ)
					.toArray();
				method.invoke(composite, args);
				assertThat(calls.get(method.getName())).as(method.getName() + " forwarded").isNotNull().hasValue(1);
			}
		}
	}

	@Test
	void closingARegistrationTwiceRemovesOnlyItsObserver() {
		CountingObserver other = new CountingObserver();
		SlipcaseObservers.Registration second = SlipcaseObservers.register(other);
		second.close();
		second.close();
		assertThat(SlipcaseObservers.current()).isSameAs(this.observer);
	}

	@Test
	void encodedValuesAreReportedAsWritten() {
		EncodedValue encoded = EncodedValue.encode(JsonFormat.of(Item.class), new Item("cup", 1, List.of()),
				BufferAllocators.defaultAllocator());
		try {
			assertThat(this.observer.sum(this.observer.writtenBytes, "json")).isEqualTo(encoded.size());
		}
		finally {
			encoded.release();
		}
	}

	@Test
	void codecReportsValuesButNotKeys() {
		FormatCodec<String, Item> codec = FormatCodec.of(JsonFormat.of(Item.class));
		ByteBuf target = Unpooled.buffer();
		try {
			codec.encodeKey("item:1", target);
			int keyBytes = target.writerIndex();
			codec.encodeValue(new Item("mug", 2, List.of("red")), target);
			int valueBytes = target.writerIndex() - keyBytes;
			codec.decodeKey(ByteBuffer.wrap("item:1".getBytes(StandardCharsets.UTF_8)));
			ByteBuffer value = target.nioBuffer(keyBytes, valueBytes);
			assertThat(codec.decodeValue(value).name()).isEqualTo("mug");
			assertThat(this.observer.writtenBytes).containsOnlyKeys("json");
			assertThat(this.observer.sum(this.observer.writtenBytes, "json")).isEqualTo(valueBytes);
			assertThat(this.observer.readBytes).containsOnlyKeys("json");
			assertThat(this.observer.sum(this.observer.readBytes, "json")).isEqualTo(valueBytes);
		}
		finally {
			target.release();
		}
	}

	@Test
	void undecodableReplyIsReportedAsAReadError() {
		ByteBuf corrupt = Unpooled.copiedBuffer("[1,", StandardCharsets.UTF_8);
		try {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> FormatDecoding.decode(JsonFormat.of(Item.class), corrupt, "item:9"));
			assertThat(this.observer.count(this.observer.failures, "json/read")).isEqualTo(1);
		}
		finally {
			corrupt.release();
		}
	}

}
