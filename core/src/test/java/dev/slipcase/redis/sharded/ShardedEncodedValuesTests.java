package dev.slipcase.redis.sharded;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.slipcase.redis.lettuce.WriteCoalescing;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.RecordingAllocator;
import dev.slipcase.redis.serializer.SlipcaseRedisSerializer;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.Utf8StringFormat;
import dev.slipcase.redis.serializer.format.ValueFormat;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.Disposable;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a sharded write encodes each value once into a buffer of its serializer's allocator,
 * and that every such buffer is released once its call is done, however it ends: written by a
 * block (one command on Slipcase's resources, separate commands on Lettuce's own), by a script,
 * refused by a full bucket, given up by its caller, or never sent because a value did not encode.
 */
@ParameterizedClass(name = "slipcase resources: {0}")
@ValueSource(booleans = { true, false })
class ShardedEncodedValuesTests {

	private static final byte ESCAPE = (byte) 0xF7;

	@Parameter
	boolean slipcaseResources;

	private final RecordingAllocator allocator = new RecordingAllocator(true);

	private final RedisServer server = RedisServers.shared();

	private ClientResources resources;

	private RedisClient client;

	private ShardedTemplates templates;

	private StatefulRedisConnection<byte[], byte[]> bytes;

	private int namespaces;

	@BeforeEach
	void connect() {
		this.resources = this.slipcaseResources ? WriteCoalescing.configure(ClientResources.builder()).build()
				: ClientResources.create();
		this.client = RedisClient.create(this.resources, this.server.endpoint().uri());
		this.templates = ShardedTemplates.create(this.client);
		this.bytes = this.client.connect(ByteArrayCodec.INSTANCE);
	}

	@AfterEach
	void disconnect() {
		this.bytes.close();
		this.templates.close();
		this.client.shutdown();
		this.resources.shutdown();
	}

	@Test
	void aMultiSetWhoseThirdValueCannotBeEncodedReleasesTheOthersAndWritesNothing() {
		ShardedTemplate<String> template = template(numeric(), serializer(new RefusingFormat()));
		Map<String, String> values = new LinkedHashMap<>();
		values.put(key(template, 1), "one");
		values.put(key(template, 2), "two");
		values.put(key(template, 3), "refused");
		values.put(key(template, 4), "four");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> template.multiSet(values))
			.withMessageStartingWith("key '" + key(template, 3) + "': namespace '");
		assertThat(this.allocator.handedOut()).isEqualTo(3);
		assertThat(this.allocator.allReleased()).isTrue();
		assertThat(template.multiGet(List.copyOf(values.keySet()))).containsOnlyNulls();
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> template.reactive().multiSet(values).block());
		assertThat(this.allocator.allReleased()).isTrue();
	}

	@Test
	void valuesStartingWithTheEscapeByteAreStoredEscapedByABlockAndReadBackAsWritten() {
		ShardedTemplate<byte[]> template = template(numeric(),
				SlipcaseSerializers.bytes().withAllocator(this.allocator));
		byte[][] values = { { ESCAPE, '>' }, { ESCAPE }, { ESCAPE, ESCAPE }, { ESCAPE, 1, 2 }, { 'a', ESCAPE },
				startingWithTheEscapeByte(300) };
		Map<String, byte[]> written = new LinkedHashMap<>();
		for (int i = 0; i < values.length; i++) {
			template.set(key(template, i), values[i]);
			assertThat(this.allocator.allReleased()).as("after set %d", i).isTrue();
			written.put(key(template, 100 + i), values[i]);
		}
		template.multiSet(written);
		assertThat(this.allocator.allReleased()).isTrue();
		byte[] bucket = (template.namespace().ownedKeyPrefix() + "n:0}").getBytes();
		assertThat(this.bytes.sync().hget(bucket, "0".getBytes())).containsExactly(ESCAPE, ESCAPE, '>');
		assertThat(this.bytes.sync().hget(bucket, "104".getBytes())).containsExactly('a', ESCAPE);
		for (int i = 0; i < values.length; i++) {
			assertThat(template.get(key(template, i))).isEqualTo(values[i]);
		}
		assertThat(template.multiGet(List.copyOf(written.keySet()))).containsExactly(values);
	}

	@Test
	void aWriteTheScriptsMakeReleasesItsValues() {
		ShardedTemplate<String> template = template(numeric(), serializer(Utf8StringFormat.INSTANCE));
		assertThat(template.setIfAbsent(key(template, 1), "first")).isTrue();
		assertThat(template.setIfAbsent(key(template, 1), "second")).isFalse();
		template.setKeepTtl(key(template, 2), "kept");
		template.set(key(template, 3), "x".repeat(300), Duration.ofMinutes(1));
		assertThat(this.allocator.handedOut()).isEqualTo(4);
		assertThat(this.allocator.allReleased()).isTrue();
		assertThat(template.multiGet(List.of(key(template, 1), key(template, 2), key(template, 3))))
			.containsExactly("first", "kept", "x".repeat(300));
	}

	@Test
	void aWriteABucketFullExceptionEndsReleasesEveryValue() {
		String name = name();
		ShardedTemplate<String> template = template(
				ShardedNamespace.builder(name).keyPrefix(name + ":").bucketCount(1).maxEntries(4).build(),
				serializer(Utf8StringFormat.INSTANCE));
		for (int i = 0; i < 4; i++) {
			template.set(key(template, "k" + i), "v");
		}
		Map<String, String> values = new LinkedHashMap<>();
		values.put(key(template, 7), "seven");
		values.put(key(template, "k9"), "nine");
		assertThatExceptionOfType(BucketFullException.class).isThrownBy(() -> template.multiSet(values))
			.withMessageContaining("k9");
		assertThatExceptionOfType(BucketFullException.class)
			.isThrownBy(() -> template.set(key(template, "k8"), "eight"));
		assertThat(this.allocator.handedOut()).isEqualTo(7);
		assertThat(this.allocator.allReleased()).isTrue();
		assertThat(template.get(key(template, 7))).isEqualTo("seven");
	}

	@Test
	void aWriteItsCallerGivesUpReleasesItsValues() throws Exception {
		ShardedTemplate<String> template = template(numeric(), serializer(Utf8StringFormat.INSTANCE));
		for (int round = 0; round < 50; round++) {
			Map<String, String> values = new LinkedHashMap<>();
			for (int id = 0; id < 20; id++) {
				values.put(key(template, round * 20 + id), "v" + id);
			}
			Disposable write = template.reactive().multiSet(values).subscribe();
			write.dispose();
		}
		// a block already committed keeps its values until it is done: poll rather than expect now
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!this.allocator.allReleased() && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		assertThat(this.allocator.allReleased()).isTrue();
		template.set(key(template, 0), "after");
		assertThat(template.get(key(template, 0))).isEqualTo("after");
	}

	private <V> ShardedTemplate<V> template(ShardedNamespace namespace, SlipcaseRedisSerializer<V> serializer) {
		return this.templates.template(namespace, serializer);
	}

	private <V> SlipcaseRedisSerializer<V> serializer(ValueFormat<V> format) {
		return SlipcaseRedisSerializer.of(format, null, this.allocator);
	}

	private ShardedNamespace numeric() {
		String name = name();
		return ShardedNamespace.builder(name).keyPrefix(name + ":").build();
	}

	private String name() {
		return "enc" + this.namespaces++ + "x" + Long.toHexString(System.nanoTime() & 0xffffff)
				+ (this.slipcaseResources ? "s" : "d");
	}

	private static String key(ShardedTemplate<?> template, Object id) {
		return template.namespace().keyPrefix() + id;
	}

	private static byte[] startingWithTheEscapeByte(int length) {
		byte[] bytes = new byte[length];
		bytes[0] = ESCAPE;
		return bytes;
	}

	/** UTF-8 text, but for {@code "refused"}, which it refuses to write. */
	private static final class RefusingFormat implements ValueFormat<String> {

		@Override
		public void encode(String value, ByteBuf out) {
			if ("refused".equals(value)) {
				throw new SerializationException("refuses '" + value + "'");
			}
			Utf8StringFormat.INSTANCE.encode(value, out);
		}

		@Override
		public String decode(ByteBuf in) {
			return Utf8StringFormat.INSTANCE.decode(in);
		}

		@Override
		public String name() {
			return "refusing";
		}

	}

}
