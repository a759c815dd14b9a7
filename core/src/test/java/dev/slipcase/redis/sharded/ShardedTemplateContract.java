package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.test.Wait;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.serializer.GenericToStringSerializer;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.StringRedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The behaviour every kind of server (standalone 7.0, 6.2, cluster) must show; subclasses connect.
 * Each test uses a namespace of its own, so tests never see each other's keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShardedTemplateContract {

	private static final AtomicInteger NAMESPACES = new AtomicInteger();

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	static final RedisSerializer<String> STRINGS = StringRedisSerializer.UTF_8;

	static final RedisSerializer<Long> LONGS = new GenericToStringSerializer<>(Long.class);

	/** Java serialization: cannot write what is not {@code Serializable}, nor read what it did not write. */
	static final RedisSerializer<Object> JAVA = new JdkSerializationRedisSerializer();

	/** The factory under test, connected to the server of the subclass. */
	abstract ShardedTemplates templates();

	/** Another factory over the same server, as another instance of an application makes: the caller closes it. */
	abstract ShardedTemplates newTemplates();

	/** A String connection to the same server, to look at what the template stored. */
	abstract RedisClusterCommands<String, String> redis();

	/** The encoding name of a compact hash on this server. */
	String compactEncoding() {
		return "listpack";
	}

	ShardedNamespace.Builder namespace() {
		String name = "t" + NAMESPACES.incrementAndGet() + "x" + Long.toHexString(System.nanoTime() & 0xffffff);
		return ShardedNamespace.builder(name).keyPrefix(name + ":");
	}

	<V> ShardedTemplate<V> template(ShardedNamespace namespace, RedisSerializer<V> serializer) {
		return templates().template(namespace, serializer);
	}

	static String key(ShardedTemplate<?> template, Object id) {
		return template.namespace().keyPrefix() + id;
	}

	@Test
	void storesAndReadsValues() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1234), "hello");
		assertThat(template.get(key(template, 1234))).isEqualTo("hello");
		assertThat(template.get(key(template, 1235))).isNull();
	}

	@Test
	void numericIdsAreFieldsOfACompactBucket() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 5), "five");
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		assertThat(redis().hget(bucket, "5")).isEqualTo("five");
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(redis().exists(key(template, 5))).isZero();
	}

	@Test
	void leadingZeroIdsNeverCollideWithCanonicalIds() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, "007"), "padded");
		template.set(key(template, "7"), "canonical");
		template.set(key(template, "0007"), "more padded");
		assertThat(template.get(key(template, "007"))).isEqualTo("padded");
		assertThat(template.get(key(template, "7"))).isEqualTo("canonical");
		assertThat(template.get(key(template, "0007"))).isEqualTo("more padded");
	}

	@Test
	void deleteRemovesTheValueAndSaysWhetherItExisted() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, "a"), "x");
		assertThat(template.exists(key(template, "a"))).isTrue();
		assertThat(template.delete(key(template, "a"))).isTrue();
		assertThat(template.delete(key(template, "a"))).isFalse();
		assertThat(template.exists(key(template, "a"))).isFalse();
		assertThat(template.get(key(template, "a"))).isNull();
	}

	@Test
	void setIfAbsentKeepsTheExistingValue() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		assertThat(template.setIfAbsent(key(template, 1), "first")).isTrue();
		assertThat(template.setIfAbsent(key(template, 1), "second")).isFalse();
		assertThat(template.get(key(template, 1))).isEqualTo("first");
	}

	@Test
	void setIfAbsentOfAnOversizeValueKeepsTheExistingValueAndLeavesNoOverflowKey() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "small");
		assertThat(template.setIfAbsent(key(template, 1), "y".repeat(500))).isFalse();
		assertThat(template.get(key(template, 1))).isEqualTo("small");
		assertThat(overflowKeys(template)).isEmpty();
	}

	@Test
	void incrementsAreDecimalAndReadableThroughTheSerializer() {
		ShardedTemplate<Long> template = template(namespace().build(), LONGS);
		assertThat(template.incrBy(key(template, 42), 5)).isEqualTo(5);
		assertThat(template.incrBy(key(template, 42), 10)).isEqualTo(15);
		assertThat(template.decrBy(key(template, 42), 3)).isEqualTo(12);
		assertThat(template.get(key(template, 42))).isEqualTo(12L);
		template.set(key(template, 43), 100L);
		assertThat(template.incrBy(key(template, 43), 1)).isEqualTo(101);
	}

	@Test
	void floatIncrementsAddUp() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		assertThat(template.incrByFloat(key(template, "price"), 1.5)).isEqualTo(1.5);
		assertThat(template.incrByFloat(key(template, "price"), 0.25)).isEqualTo(1.75);
		assertThat(template.get(key(template, "price"))).isEqualTo("1.75");
	}

	@Test
	void aValueTheSerializerCannotReadFailsNamingTheKeyAndNamespace() {
		ShardedTemplate<Long> template = template(namespace().build(), SlipcaseSerializers.longs());
		template.set(key(template, 5), 5L);
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		redis().hset(bucket, "5", "not a number");
		assertThatExceptionOfType(KeyedSerializationException.class).isThrownBy(() -> template.get(key(template, 5)))
			.withMessageStartingWith("key '" + key(template, 5) + "': namespace '" + template.namespace().name() + "': ")
			.withMessageContaining("number");
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> template.multiGet(List.of(key(template, 5))))
			.withMessageStartingWith("key '" + key(template, 5) + "': ");
	}

	@Test
	void aValueTheSerializerCannotWriteFailsNamingTheKeyAndWritesNothing() {
		ShardedTemplate<String> template = template(namespace().build(), new RefusingSerializer());
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> template.set(key(template, 6), "refused"))
			.withMessageStartingWith("key '" + key(template, 6) + "': namespace '" + template.namespace().name() + "': ")
			.withMessageContaining("refuses");
		assertThat(template.exists(key(template, 6))).isFalse();
	}

	/** Writes any string but one. */
	static final class RefusingSerializer implements RedisSerializer<String> {

		@Override
		public byte[] serialize(String value) {
			if ("refused".equals(value)) {
				throw new org.springframework.data.redis.serializer.SerializationException("test serializer refuses '" + value + "'");
			}
			return STRINGS.serialize(value);
		}

		@Override
		public String deserialize(byte[] bytes) {
			return STRINGS.deserialize(bytes);
		}

	}

	@Test
	void incrementOfANonNumberFails() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "abc");
		assertThatExceptionOfType(RedisSystemException.class).isThrownBy(() -> template.incrBy(key(template, 1), 1))
			.withMessageContaining("not an integer");
	}

	@Test
	void concurrentIncrementsFromManyThreadsGiveExactTotals() throws Exception {
		ShardedTemplate<Long> template = template(namespace().build(), LONGS);
		ShardedTemplate<Long> hashed = template(namespace().strategy(ShardingStrategy.HASHED).bucketCount(4).build(),
				LONGS);
		int threads = 8;
		int perThread = 250;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(pool.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						template.incrBy(key(template, i % 10), 1);
						hashed.incrBy(key(hashed, "k" + (i % 5)), 2);
					}
				}));
			}
			for (Future<?> future : done) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
		}
		for (int i = 0; i < 10; i++) {
			assertThat(template.get(key(template, i))).isEqualTo((long) threads * perThread / 10);
		}
		for (int i = 0; i < 5; i++) {
			assertThat(hashed.get(key(hashed, "k" + i))).isEqualTo((long) threads * perThread / 5 * 2);
		}
	}

	@Test
	void concurrentSmallAndOversizeWritesOfOneKeyLeaveExactlyOneValue() throws Exception {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String big = "B".repeat(200);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				int thread = t;
				done.add(pool.submit(() -> {
					for (int i = 0; i < 200; i++) {
						template.set(key(template, 1), ((i + thread) % 2 == 0) ? "small" : big);
						assertThat(template.get(key(template, 1))).isIn("small", big);
						assertThat(template.multiGet(List.of(key(template, 1), key(template, 2))).get(0)).isIn("small", big);
					}
				}));
			}
			for (Future<?> future : done) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
		}
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		String field = redis().hget(bucket, "1");
		boolean inBucket = "small".equals(field);
		boolean inOverflow = redis().exists(bucket + ":1") == 1;
		assertThat(inBucket).isNotEqualTo(inOverflow);
		if (inOverflow) {
			assertThat(field).as("the overflow marker").endsWith(">").hasSize(2);
		}
		assertThat(template.get(key(template, 1))).isEqualTo(inBucket ? "small" : big);
	}

	@Test
	void floatIncrementBeyondTheValueLimitKeepsTheBucketCompact() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		template.set(key(template, 9), "1");
		double big = template.incrByFloat(key(template, 9), 1e300);
		assertThat(big).isEqualTo(1e300);
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(Double.parseDouble(template.get(key(template, 9)))).isEqualTo(1e300);
		assertThat(template.incrByFloat(key(template, 9), 1)).isEqualTo(1e300);
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(template.incrByFloat(key(template, 9), -1e300)).isBetween(-1e285, 1e285);
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(overflowKeys(template)).as("a value that fits again moves back to its field").isEmpty();
	}

	@Test
	void valuesOf10BytesTo10KilobytesAlternatingOnOneKeyKeepTheBucketCompactOnEveryWritePath() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		ShardedTemplate<String> hashed = template(namespace().strategy(ShardingStrategy.HASHED).bucketCount(1).build(),
				STRINGS);
		int[] sizes = { 10, 10_000, 60, 100, 1_000, 10, 10_000 };
		for (ShardedTemplate<String> each : List.of(template, hashed)) {
			String bucket = each.namespace().ownedKeyPrefix() + ((each == template) ? "n:0}" : "h:0}");
			for (int i = 0; i < sizes.length; i++) {
				String value = "v".repeat(sizes[i]);
				String key = key(each, 5);
				switch (i % 4) {
					case 0 -> each.set(key, value);
					case 1 -> each.multiSet(Map.of(key, value, key(each, 6), value));
					case 2 -> each.setKeepTtl(key, value);
					default -> {
						each.delete(key);
						assertThat(each.setIfAbsent(key, value)).isTrue();
					}
				}
				assertThat(each.get(key)).as("size %d", sizes[i]).isEqualTo(value);
				assertThat(each.multiGet(List.of(key, key(each, 7)))).containsExactly(value, null);
				assertThat(redis().objectEncoding(bucket)).as("size %d", sizes[i]).isEqualTo(compactEncoding());
			}
		}
	}

	@Test
	void reactiveTemplateRunsEveryOperationOnTheSameStore() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		ReactiveShardedTemplate<String> reactive = template.reactive();
		String one = key(template, 1);
		String two = key(template, "two");
		assertThat(reactive.get(one).block()).isNull();
		reactive.set(one, "first").block();
		assertThat(template.get(one)).isEqualTo("first");
		assertThat(reactive.get(one).block()).isEqualTo("first");
		assertThat(reactive.exists(one).block()).isTrue();
		assertThat(reactive.setIfAbsent(one, "second").block()).isFalse();
		assertThat(reactive.setIfAbsent(two, "second").block()).isTrue();
		reactive.multiSet(Map.of(key(template, 3), "three", key(template, 4), "z".repeat(500))).block();
		assertThat(reactive.multiGet(List.of(key(template, 4), one, key(template, 99), two, key(template, 3))).block())
			.containsExactly("z".repeat(500), "first", null, "second", "three");
		reactive.set(one, "expiring", Duration.ofMinutes(5)).block();
		assertThat(reactive.ttlMillis(one).block()).isBetween(1L, 300_000L);
		reactive.setKeepTtl(one, "kept").block();
		assertThat(template.ttlMillis(one)).isBetween(1L, 300_000L);
		assertThat(reactive.persist(one).block()).isTrue();
		assertThat(reactive.ttlMillis(one).block()).isEqualTo(-1L);
		assertThat(reactive.expire(one, Duration.ofMinutes(1)).block()).isTrue();
		assertThat(reactive.expire(key(template, 98), Duration.ofMinutes(1)).block()).isFalse();
		assertThat(reactive.delete(one).block()).isTrue();
		assertThat(reactive.delete(one).block()).isFalse();
		assertThat(reactive.exists(one).block()).isFalse();
	}

	@Test
	void reactiveWritesOfEverySizeKeepTheBucketCompact() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		ShardedTemplate<String> hashed = template(namespace().strategy(ShardingStrategy.HASHED).bucketCount(1).build(),
				STRINGS);
		int[] sizes = { 10, 10_000, 60, 100, 1_000, 10, 10_000 };
		for (ShardedTemplate<String> each : List.of(template, hashed)) {
			ReactiveShardedTemplate<String> reactive = each.reactive();
			String bucket = each.namespace().ownedKeyPrefix() + ((each == template) ? "n:0}" : "h:0}");
			for (int i = 0; i < sizes.length; i++) {
				String value = "v".repeat(sizes[i]);
				String key = key(each, 5);
				switch (i % 4) {
					case 0 -> reactive.set(key, value).block();
					case 1 -> reactive.multiSet(Map.of(key, value, key(each, 6), value)).block();
					case 2 -> reactive.setKeepTtl(key, value).block();
					default -> {
						reactive.delete(key).block();
						assertThat(reactive.setIfAbsent(key, value).block()).isTrue();
					}
				}
				assertThat(reactive.get(key).block()).as("size %d", sizes[i]).isEqualTo(value);
				assertThat(redis().objectEncoding(bucket)).as("size %d", sizes[i]).isEqualTo(compactEncoding());
			}
		}
	}

	@Test
	void reactiveIncrementsFromManySubscribersGiveExactTotals() {
		ShardedTemplate<Long> template = template(namespace().build(), LONGS);
		ShardedTemplate<Long> hashed = template(namespace().strategy(ShardingStrategy.HASHED).bucketCount(4).build(),
				LONGS);
		int increments = 2_000;
		Flux.range(0, increments)
			.flatMap((i) -> template.reactive().incrBy(key(template, i % 10), 1)
				.then(hashed.reactive().incrBy(key(hashed, "k" + (i % 5)), 2)), 64)
			.blockLast(Duration.ofMinutes(2));
		for (int i = 0; i < 10; i++) {
			assertThat(template.get(key(template, i))).isEqualTo((long) increments / 10);
		}
		for (int i = 0; i < 5; i++) {
			assertThat(hashed.get(key(hashed, "k" + i))).isEqualTo((long) increments / 5 * 2);
		}
		assertThat(template.reactive().incrByFloat(key(template, "f"), 0.5).block()).isEqualTo(0.5);
		assertThat(template.reactive().decrBy(key(template, 0), 200).block()).isZero();
	}

	@Test
	void reactiveFailuresNameTheKeyAsTheBlockingOnesDo() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "abc");
		assertThatExceptionOfType(RedisSystemException.class)
			.isThrownBy(() -> template.reactive().incrBy(key(template, 1), 1).block())
			.withMessageContaining("not an integer");
		ShardedTemplate<Long> longs = template(namespace().build(), SlipcaseSerializers.longs());
		longs.set(key(longs, 5), 5L);
		redis().hset(longs.namespace().ownedKeyPrefix() + "n:0}", "5", "not a number");
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> longs.reactive().get(key(longs, 5)).block())
			.withMessageStartingWith("key '" + key(longs, 5) + "': namespace '" + longs.namespace().name() + "': ");
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> longs.reactive().multiGet(List.of(key(longs, 5))).block())
			.withMessageStartingWith("key '" + key(longs, 5) + "': ");
	}

	@Test
	void valuesThatStartWithTheMarkerByteRoundTripOnEveryPath() {
		ShardedTemplate<byte[]> template = template(namespace().build(), RedisSerializer.byteArray());
		byte[][] values = { { (byte) 0xF7, '>' }, { (byte) 0xF7 }, { (byte) 0xF7, (byte) 0xF7 }, { (byte) 0xF7, 1, 2 },
				bytesStartingWithTheMarkerByte(300) };
		Map<String, byte[]> written = new LinkedHashMap<>();
		for (int i = 0; i < values.length; i++) {
			template.set(key(template, i), values[i]);
			written.put(key(template, i), values[i]);
			assertThat(template.get(key(template, i))).isEqualTo(values[i]);
		}
		assertThat(template.multiGet(List.copyOf(written.keySet()))).containsExactly(values);
		Map<String, byte[]> visited = new HashMap<>();
		template.forEach(visited::put);
		assertThat(visited).containsOnlyKeys(written.keySet());
		written.forEach((key, value) -> assertThat(visited.get(key)).isEqualTo(value));
	}

	private static byte[] bytesStartingWithTheMarkerByte(int length) {
		byte[] bytes = new byte[length];
		bytes[0] = (byte) 0xF7;
		bytes[1] = '>';
		return bytes;
	}

	@Test
	void multiGetAnswersInTheCallersOrder() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 0; i < 2000; i += 7) {
			values.put(key(template, i), "v" + i);
		}
		values.put(key(template, "big"), "b".repeat(300));
		values.put(key(template, "name"), "alice");
		template.multiSet(values);
		List<String> keys = new ArrayList<>(values.keySet());
		keys.add(3, key(template, 1));
		java.util.Collections.reverse(keys);
		List<String> result = template.multiGet(keys);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(result.get(i)).as(keys.get(i)).isEqualTo(values.get(keys.get(i)));
		}
	}

	@Test
	void oversizeValueGoesToAnOverflowKeyAndTheBucketStaysCompact() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String big = "z".repeat(template.limits().maxValueBytes() + 1);
		template.set(key(template, 1), "small");
		template.set(key(template, 2), big);
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		assertThat(template.get(key(template, 2))).isEqualTo(big);
		assertThat(template.exists(key(template, 2))).isTrue();
		assertThat(overflowKeys(template)).hasSize(1);
		assertThat(template.delete(key(template, 2))).isTrue();
		assertThat(template.get(key(template, 2))).isNull();
		assertThat(overflowKeys(template)).isEmpty();
	}

	@Test
	void valueOfExactlyTheLimitStaysInTheBucket() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String limit = "z".repeat(template.limits().maxValueBytes());
		template.set(key(template, 1), limit);
		assertThat(overflowKeys(template)).isEmpty();
		assertThat(redis().objectEncoding(template.namespace().ownedKeyPrefix() + "n:0}")).isEqualTo(compactEncoding());
		assertThat(template.get(key(template, 1))).isEqualTo(limit);
	}

	@Test
	void shrinkingAnOverflowedValueRemovesItsOverflowKey() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "q".repeat(200));
		template.set(key(template, 1), "q".repeat(300));
		assertThat(overflowKeys(template)).hasSize(1);
		template.set(key(template, 1), "short");
		assertThat(overflowKeys(template)).isEmpty();
		assertThat(template.get(key(template, 1))).isEqualTo("short");
	}

	@Test
	void longIdIsStoredInAPlainKeyOfItsOwn() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		String id = "i".repeat(100);
		template.set(key(template, id), "v");
		assertThat(overflowKeys(template)).singleElement().asString().endsWith("}:" + id);
		assertThat(template.get(key(template, id))).isEqualTo("v");
		assertThat(template.incrBy(key(template, "j".repeat(100)), 3)).isEqualTo(3);
		assertThat(template.delete(key(template, id))).isTrue();
		assertThat(template.exists(key(template, id))).isFalse();
	}

	@Test
	void layoutIsStoredAndAMismatchRefusesToStart() {
		ShardedNamespace namespace = namespace().bucketSize(100).build();
		ShardedTemplate<String> template = template(namespace, STRINGS);
		template.set(key(template, 250), "x");
		assertThat(redis().get(namespace.ownedKeyPrefix() + "layout}")).contains("bucket-size=100");
		ShardedNamespace changed = ShardedNamespace.builder(namespace.name())
			.keyPrefix(namespace.keyPrefix())
			.bucketSize(50)
			.build();
		assertThatExceptionOfType(ShardLayoutMismatchException.class).isThrownBy(() -> template(changed, STRINGS))
			.withMessageContaining("bucket-size=100")
			.withMessageContaining("bucket-size=50");
		ShardedNamespace hashed = ShardedNamespace.builder(namespace.name())
			.keyPrefix(namespace.keyPrefix())
			.strategy(ShardingStrategy.HASHED)
			.build();
		assertThatExceptionOfType(ShardLayoutMismatchException.class).isThrownBy(() -> template(hashed, STRINGS));
	}

	@Test
	void bucketsOfLayoutVersion1RefuseToStartNamingTheVersion() {
		ShardedNamespace namespace = namespace().build();
		template(namespace, STRINGS);
		String layoutKey = namespace.ownedKeyPrefix() + "layout}";
		redis().set(layoutKey, redis().get(layoutKey).replace("v=2;", "v=1;"));
		assertThatExceptionOfType(ShardLayoutMismatchException.class).isThrownBy(() -> template(namespace, STRINGS))
			.withMessageContaining("layout version 1")
			.withMessageContaining("overflow markers");
	}

	@Test
	void changedKeyPrefixRefusesToStart() {
		ShardedNamespace namespace = namespace().build();
		template(namespace, STRINGS).set(namespace.keyPrefix() + 1, "x");
		ShardedNamespace changed = ShardedNamespace.builder(namespace.name()).keyPrefix("other:").build();
		assertThatExceptionOfType(ShardLayoutMismatchException.class).isThrownBy(() -> template(changed, STRINGS))
			.withMessageContaining("key-prefix=other%3A");
	}

	@Test
	void aliasOfAnotherNamespaceIsRefused() {
		ShardedNamespace first = namespace().build();
		template(first, STRINGS);
		ShardedNamespace second = ShardedNamespace.builder(first.name() + "-two").alias(first.alias()).build();
		assertThatExceptionOfType(ShardLayoutMismatchException.class).isThrownBy(() -> template(second, STRINGS))
			.withMessageContaining("already holds the buckets of namespace '" + first.name() + "'");
	}

	@Test
	void derivedSizesKeepTheStoredLayout() {
		ShardedNamespace namespace = namespace().bucketSize(100).build();
		template(namespace, STRINGS).set(namespace.keyPrefix() + 250, "x");
		ShardedNamespace derived = ShardedNamespace.builder(namespace.name()).keyPrefix(namespace.keyPrefix()).build();
		ShardedTemplate<String> template = template(derived, STRINGS);
		assertThat(template.layout().bucketSize()).isEqualTo(100);
		assertThat(template.get(key(template, 250))).isEqualTo("x");
	}

	@Test
	void derivedBucketSizeIsAQuarterOfTheServersEntryLimit() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		assertThat(template.layout().bucketSize())
			.isEqualTo((int) Math.floor(template.limits().maxEntries() * 0.25));
	}

	@Test
	void hashedBucketRefusesAWriteBeyondTheEntryLimit() {
		ShardedTemplate<String> template = template(
				namespace().strategy(ShardingStrategy.HASHED).bucketCount(1).maxEntries(4).build(), STRINGS);
		for (int i = 0; i < 4; i++) {
			template.set(key(template, "k" + i), "v");
		}
		assertThatExceptionOfType(BucketFullException.class).isThrownBy(() -> template.set(key(template, "k4"), "v"))
			.withMessageContaining("k4");
		assertThatExceptionOfType(BucketFullException.class).isThrownBy(() -> template.incrBy(key(template, "k5"), 1));
		template.set(key(template, "k0"), "overwrite is fine");
		assertThat(template.get(key(template, "k4"))).isNull();
		assertThat(redis().hlen(template.namespace().ownedKeyPrefix() + "h:0}")).isEqualTo(4);
	}

	@Test
	void aWriteToANumericAndAFullHashedBucketWritesTheNumericOneAndNamesTheOther() {
		ShardedTemplate<String> template = template(namespace().bucketCount(1).maxEntries(4).build(), STRINGS);
		for (int i = 0; i < 4; i++) {
			template.set(key(template, "k" + i), "v");
		}
		assertThatExceptionOfType(BucketFullException.class)
			.isThrownBy(() -> template.multiSet(Map.of(key(template, 7), "seven", key(template, "k9"), "nine")))
			.withMessageContaining("k9");
		assertThat(template.get(key(template, 7))).isEqualTo("seven");
		assertThat(template.get(key(template, "k9"))).isNull();
	}

	/**
	 * Hash flooding: ids chosen offline so that {@code fnv1a32(id) mod bucketCount} is one bucket fill
	 * it, and a user whose new id lands there is refused. Under a keyed layout the same ids spread.
	 */
	@Test
	void idsChosenToFillOneBucketFillItUnderAnUnkeyedLayoutOnly() {
		List<String> aimed = new ArrayList<>();
		for (int n = 0; aimed.size() < 5; n++) {
			String id = "mallory" + n;
			if (Integer.remainderUnsigned(KeyPlacement.fnv1a32(id.getBytes(StandardCharsets.UTF_8)), 64) == 0) {
				aimed.add(id);
			}
		}
		ShardedNamespace unkeyed = namespace().strategy(ShardingStrategy.HASHED).bucketCount(64).maxEntries(4).build();
		// as a layout stored before keyed placement, which the template keeps
		redis().set(new String(KeyPlacement.layoutKey(unkeyed), StandardCharsets.UTF_8),
				new ShardLayout(ShardingStrategy.HASHED, 1, 64, ShardLayout.FNV1A_32, ShardLayout.VERSION, unkeyed.name(),
						unkeyed.keyPrefix()).encode());
		ShardedTemplate<String> old = template(unkeyed, STRINGS);
		for (String id : aimed.subList(0, 4)) {
			old.set(key(old, id), "v");
		}
		assertThatExceptionOfType(BucketFullException.class).isThrownBy(() -> old.set(key(old, aimed.get(4)), "v"));

		ShardedNamespace keyed = namespace().strategy(ShardingStrategy.HASHED).bucketCount(64).maxEntries(4).build();
		ShardedTemplate<String> template = template(keyed, STRINGS);
		for (String id : aimed) {
			template.set(key(template, id), "v");
		}
		assertThat(template.multiGet(aimed.stream().map((id) -> key(template, id)).toList())).containsOnly("v");
		assertThat(redis().get(new String(KeyPlacement.layoutKey(keyed), StandardCharsets.UTF_8)))
			.contains("hash=" + ShardLayout.SIPHASH_24);
		assertThat(redis().strlen(new String(KeyPlacement.secretKey(keyed), StandardCharsets.UTF_8)))
			.isEqualTo(SipHash24.KEY_BYTES);
	}

	/**
	 * The flip guard at a bucket's limit with counted writes: four instances (templates of their own,
	 * each knowing only what it saw of the bucket's count), two threads each, write 700 ids to a
	 * namespace of one bucket by {@code set}, {@code multiSet} and {@code incrBy}. The bucket fills
	 * up and stays compact; every id is readable or was refused.
	 */
	@Test
	void idsOfOneBucketWrittenByConcurrentInstancesFillItAndLeaveItCompact() throws Exception {
		ShardedNamespace single = namespace().strategy(ShardingStrategy.HASHED).bucketCount(1).build();
		List<String> ids = new ArrayList<>();
		for (int n = 0; n < 700; n++) {
			ids.add("user" + n);
		}
		List<ShardedTemplates> factories = new ArrayList<>();
		List<ShardedTemplate<String>> instances = new ArrayList<>();
		int threads = 8;
		List<String> refused = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			for (int i = 0; i < 4; i++) {
				factories.add(newTemplates());
				instances.add(factories.get(i).template(single, STRINGS));
			}
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				ShardedTemplate<String> instance = instances.get(t % instances.size());
				done.add(pool.submit(() -> {
					for (int i = 2 * thread; i < ids.size(); i += 2 * threads) {
						String first = key(instance, ids.get(i));
						String second = key(instance, ids.get(i + 1));
						switch ((i / 2) % 3) {
							case 0 -> refuse(refused, List.of(first, second),
									() -> instance.multiSet(Map.of(first, "v", second, "v")));
							case 1 -> {
								refuse(refused, List.of(first), () -> instance.set(first, "v"));
								refuse(refused, List.of(second), () -> instance.set(second, "v"));
							}
							default -> {
								refuse(refused, List.of(first), () -> instance.incrBy(first, 1));
								refuse(refused, List.of(second), () -> instance.incrBy(second, 1));
							}
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
			factories.forEach(ShardedTemplates::close);
		}
		ShardedTemplate<String> template = template(single, STRINGS);
		String bucket = single.ownedKeyPrefix() + "h:0}";
		int maxEntries = template.limits().maxEntries();
		assertThat(redis().objectEncoding(bucket)).isEqualTo(compactEncoding());
		long fields = redis().hlen(bucket);
		assertThat(fields).isBetween((long) maxEntries * 3 / 4, (long) maxEntries);
		assertThat(refused).isNotEmpty();
		List<String> keys = ids.stream().map((id) -> key(template, id)).toList();
		List<String> read = template.multiGet(keys);
		long readable = read.stream().filter((value) -> value != null).count();
		assertThat(readable).isEqualTo(fields);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(read.get(i) == null).as(keys.get(i)).isEqualTo(refused.contains(keys.get(i)));
		}
	}

	/**
	 * A hashed namespace written by eight threads to its declared size, then to twice it: every
	 * bucket stays compact and every value is there, writes taking the counted path.
	 */
	@Test
	void hashedNamespaceAtItsDeclaredSizeAndTwiceOverKeepsEveryBucketCompact() throws Exception {
		int declared = 5_000;
		ShardedTemplate<String> template = template(
				namespace().strategy(ShardingStrategy.HASHED).expectedKeys(declared).build(), STRINGS);
		for (int round = 1; round <= 2; round++) {
			writeConcurrently(template, (round - 1) * declared, round * declared);
			BucketMemoryReport report = template.memoryReport(template.layout().bucketCount() + 1);
			assertThat(report.sampledBuckets()).isEqualTo(template.layout().bucketCount());
			assertThat(report.flippedBuckets()).isZero();
			assertThat(report.fields()).isEqualTo((long) round * declared);
		}
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 2 * declared; i += 97) {
			keys.add(key(template, "user-" + i));
		}
		assertThat(template.multiGet(keys)).doesNotContainNull();
	}

	/** Runs {@code write}, adding {@code keys} to {@code refused} when it fails with a {@link BucketFullException}. */
	private static void refuse(List<String> refused, List<String> keys, Runnable write) {
		try {
			write.run();
		}
		catch (BucketFullException ex) {
			refused.addAll(keys);
		}
	}

	/** Writes ids {@code user-<from>} to {@code user-<to - 1>} from eight threads by set, multiSet and incrBy. */
	private static void writeConcurrently(ShardedTemplate<String> template, int from, int to) throws Exception {
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				done.add(pool.submit(() -> {
					for (int i = from + 3 * thread; i < to; i += 3 * threads) {
						switch ((i / 3) % 3) {
							case 0 -> {
								Map<String, String> values = new HashMap<>();
								for (int j = i; j < Math.min(i + 3, to); j++) {
									values.put(key(template, "user-" + j), "v" + j);
								}
								template.multiSet(values);
							}
							case 1 -> {
								for (int j = i; j < Math.min(i + 3, to); j++) {
									template.set(key(template, "user-" + j), "v" + j);
								}
							}
							default -> {
								for (int j = i; j < Math.min(i + 3, to); j++) {
									template.incrBy(key(template, "user-" + j), j);
								}
							}
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void ttlWithoutFieldExpiryGoesToAPlainKeyAndAPlainSetClearsIt() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "v", Duration.ofMinutes(5));
		assertThat(template.get(key(template, 1))).isEqualTo("v");
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 300_000L);
		template.set(key(template, 1), "w");
		assertThat(template.ttlMillis(key(template, 1))).isEqualTo(-1);
		assertThat(template.get(key(template, 1))).isEqualTo("w");
		assertThat(overflowKeys(template)).isEmpty();
	}

	@Test
	void valueWithAnExpiredTtlIsGone() throws InterruptedException {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "v", Duration.ofMillis(20));
		template.set(key(template, 2), "stays");
		Wait.until(TIMEOUT, () -> template.get(key(template, 1)) == null);
		assertThat(template.exists(key(template, 1))).isFalse();
		assertThat(template.ttlMillis(key(template, 1))).isEqualTo(-2);
		assertThat(template.get(key(template, 2))).isEqualTo("stays");
	}

	@Test
	void setKeepTtlKeepsTheTtl() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "v", Duration.ofMinutes(5));
		template.setKeepTtl(key(template, 1), "w");
		assertThat(template.get(key(template, 1))).isEqualTo("w");
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 300_000L);
	}

	@Test
	void expireAndPersistChangeTheTtl() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		assertThat(template.expire(key(template, 1), Duration.ofMinutes(1))).isFalse();
		template.set(key(template, 1), "v");
		assertThat(template.expire(key(template, 1), Duration.ofMinutes(1))).isTrue();
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 60_000L);
		assertThat(template.persist(key(template, 1))).isTrue();
		assertThat(template.ttlMillis(key(template, 1))).isEqualTo(-1);
		assertThat(template.get(key(template, 1))).isEqualTo("v");
	}

	@Test
	void incrementOfAValueWithATtlKeepsTheTtl() {
		ShardedTemplate<Long> template = template(namespace().build(), LONGS);
		template.set(key(template, 1), 10L, Duration.ofMinutes(5));
		assertThat(template.incrBy(key(template, 1), 5)).isEqualTo(15);
		assertThat(template.get(key(template, 1))).isEqualTo(15L);
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 300_000L);
	}

	@Test
	void namespaceThatRefusesTtlsSaysWhyAndWritesNothing() {
		ShardedTemplate<String> template = template(namespace().ttlFallback(TtlFallback.REFUSE).build(), STRINGS);
		if (template.limits().fieldExpiry()) {
			return;
		}
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> template.set(key(template, 1), "v", Duration.ofMinutes(1)))
			.withMessageContaining("HPEXPIRE");
		assertThat(template.exists(key(template, 1))).isFalse();
	}

	@Test
	void expireInANamespaceThatRefusesTtlsIsRefusedAndKeepsTheValue() {
		ShardedTemplate<String> template = template(namespace().ttlFallback(TtlFallback.REFUSE).build(), STRINGS);
		if (template.limits().fieldExpiry()) {
			return;
		}
		template.set(key(template, 1), "v");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> template.expire(key(template, 1), Duration.ofMinutes(1)));
		assertThat(template.get(key(template, 1))).isEqualTo("v");
		assertThat(template.ttlMillis(key(template, 1))).isEqualTo(-1);
	}

	@Test
	void bucketTtlExpiresTheNamespaceAsAWhole() {
		ShardedTemplate<String> template = template(namespace().bucketTtl(Duration.ofMinutes(10)).build(), STRINGS);
		template.set(key(template, 1), "v");
		template.set(key(template, 2), "b".repeat(100));
		assertThat(redis().pttl(template.namespace().ownedKeyPrefix() + "n:0}")).isBetween(1L, 600_000L);
		assertThat(template.ttlMillis(key(template, 1))).isBetween(1L, 600_000L);
		assertThat(overflowKeys(template)).allSatisfy((key) -> assertThat(redis().pttl(key)).isBetween(1L, 600_000L));
	}

	@Test
	void readThroughFindsExistingPlainKeysAndDeleteRemovesThem() {
		ShardedTemplate<String> template = template(namespace().readThrough(true).build(), STRINGS);
		redis().set(key(template, 1), "old");
		redis().set(key(template, 2), "old two");
		assertThat(template.get(key(template, 1))).isEqualTo("old");
		assertThat(template.multiGet(List.of(key(template, 2), key(template, 3)))).containsExactly("old two", null);
		template.set(key(template, 1), "new");
		assertThat(template.get(key(template, 1))).isEqualTo("new");
		assertThat(template.setIfAbsent(key(template, 2), "x")).isFalse();
		assertThat(template.delete(key(template, 2))).isTrue();
		assertThat(template.get(key(template, 2))).isNull();
		assertThat(redis().exists(key(template, 2))).isZero();
	}

	@Test
	void readThroughIncrementStartsFromThePlainValue() {
		ShardedTemplate<Long> template = template(namespace().readThrough(true).build(), LONGS);
		redis().set(key(template, 9), "41");
		assertThat(template.incrBy(key(template, 9), 1)).isEqualTo(42);
	}

	@Test
	void readThroughIncrementOfAnIdTooLongForAFieldStartsFromThePlainValue() {
		ShardedTemplate<Long> template = template(namespace().readThrough(true).build(), LONGS);
		String key = key(template, "l".repeat(200));
		redis().set(key, "41");
		assertThat(template.incrBy(key, 1)).isEqualTo(42);
		assertThat(template.get(key)).isEqualTo(42L);
	}

	@Test
	void readThroughExpireAndPersistFindThePlainValue() {
		ShardedTemplate<String> template = template(namespace().readThrough(true).build(), STRINGS);
		redis().set(key(template, 7), "plain");
		assertThat(template.expire(key(template, 7), Duration.ofMinutes(5))).isTrue();
		assertThat(template.ttlMillis(key(template, 7))).isBetween(1L, 300_000L);
		assertThat(template.get(key(template, 7))).isEqualTo("plain");
		redis().set(key(template, 8), "plain too");
		redis().pexpire(key(template, 8), 300_000);
		template.persist(key(template, 8));
		assertThat(template.get(key(template, 8))).isEqualTo("plain too");
	}

	@Test
	void writeRedisRefusesIsReportedAsAnError() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		redis().set(template.namespace().ownedKeyPrefix() + "n:0}", "not a hash");
		assertThatExceptionOfType(RedisSystemException.class).isThrownBy(() -> template.set(key(template, 1), "v"))
			.withMessageContaining("WRONGTYPE");
		assertThatExceptionOfType(RedisSystemException.class)
			.isThrownBy(() -> template.multiSet(Map.of(key(template, 2), "v")));
		assertThatExceptionOfType(RedisSystemException.class).isThrownBy(() -> template.incrBy(key(template, 3), 1));
	}

	@Test
	void writesAndReadsStillWorkAfterTheScriptCacheWasFlushed() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "before");
		redis().scriptFlush();
		template.multiSet(Map.of(key(template, 2), "two", key(template, 3), "t".repeat(100)));
		template.set(key(template, 1), "after");
		assertThat(template.multiGet(List.of(key(template, 1), key(template, 2), key(template, 3), key(template, 4))))
			.containsExactly("after", "two", "t".repeat(100), null);
	}

	@Test
	void forEachVisitsEveryKeyOnce() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		Map<String, String> values = new HashMap<>();
		for (int i = 0; i < 500; i += 3) {
			values.put(key(template, i), "v" + i);
		}
		values.put(key(template, "007"), "padded");
		values.put(key(template, "big"), "b".repeat(200));
		values.put(key(template, "l".repeat(80)), "long id");
		template.multiSet(values);
		Map<String, String> seen = new HashMap<>();
		template.forEach((key, value) -> assertThat(seen.put(key, value)).as(key).isNull());
		assertThat(seen).isEqualTo(values);
	}

	@Test
	void memoryReportCountsCompactAndFlippedBuckets() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		Map<String, String> values = new HashMap<>();
		for (int i = 0; i < 1000; i++) {
			values.put(key(template, i), "v" + i);
		}
		template.multiSet(values);
		String bucket = template.namespace().ownedKeyPrefix() + "n:0}";
		redis().hset(bucket, "x", "f".repeat(200));
		BucketMemoryReport report = template.memoryReport(100);
		int buckets = (999 / template.layout().bucketSize()) + 1;
		assertThat(report.sampledBuckets()).isEqualTo(buckets);
		assertThat(report.flippedBuckets()).isEqualTo(1);
		assertThat(report.flippedBucketKeys()).containsExactly(bucket);
		assertThat(report.compactBuckets()).isEqualTo(buckets - 1);
		assertThat(report.fields()).isEqualTo(1001);
		assertThat(report.bytesPerKey()).isPositive();
		assertThat(report.averageFill()).isPositive();
	}

	@Test
	void migratorMovesPlainKeysIntoBucketsAndDeletesThemAfterwards() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		for (int i = 0; i < 250; i++) {
			redis().set(key(template, i), "plain" + i);
		}
		redis().set(key(template, "big"), "b".repeat(300));
		redis().psetex(key(template, "ttl"), 300_000, "expiring");
		redis().lpush(key(template, "list"), "not a string");
		template.set(key(template, 5), "newer");
		List<MigrationProgress> reports = new ArrayList<>();
		MigrationProgress done = template.migrator().migrate(50, reports::add);
		assertThat(done).isEqualTo(new MigrationProgress(253, 251, 1, 1, 252, true));
		assertThat(reports).hasSizeGreaterThan(1).last().isEqualTo(done);
		assertThat(template.get(key(template, 5))).isEqualTo("newer");
		assertThat(template.get(key(template, 249))).isEqualTo("plain249");
		assertThat(template.get(key(template, "big"))).isEqualTo("b".repeat(300));
		assertThat(template.get(key(template, "ttl"))).isEqualTo("expiring");
		assertThat(template.ttlMillis(key(template, "ttl"))).isBetween(1L, 300_000L);
		assertThat(redis().keys(KeyPlacement.escapeGlob(template.namespace().keyPrefix()) + "*"))
			.containsExactly(key(template, "list"));
		assertThat(template.memoryReport(10).flippedBuckets()).isZero();
	}

	@Test
	void migratorRunAgainFindsNothingLeftToCopy() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		for (int i = 0; i < 20; i++) {
			redis().set(key(template, i), "plain" + i);
		}
		template.migrator().migrate(7, null);
		redis().set(key(template, 3), "written by an old instance after the first run");
		MigrationProgress again = template.migrator().migrate(7, null);
		assertThat(again).isEqualTo(new MigrationProgress(1, 0, 1, 0, 1, true));
		assertThat(template.get(key(template, 3))).isEqualTo("plain3");
	}

	@Test
	void migratorLeavesKeysWithATtlTheNamespaceRefuses() {
		ShardedTemplate<String> template = template(namespace().ttlFallback(TtlFallback.REFUSE).build(), STRINGS);
		redis().psetex(key(template, 1), 300_000, "expiring");
		redis().set(key(template, 2), "plain");
		MigrationProgress done = template.migrator().migrate(10, null);
		if (template.limits().fieldExpiry()) {
			assertThat(done.copied()).isEqualTo(2);
			return;
		}
		assertThat(done).isEqualTo(new MigrationProgress(2, 1, 0, 1, 1, true));
		assertThat(redis().get(key(template, 1))).isEqualTo("expiring");
	}

	@Test
	void migratorNeedsAKeyPrefix() {
		ShardedTemplate<String> template = template(ShardedNamespace.builder(namespace().build().name()).build(), STRINGS);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(template::migrator)
			.withMessageContaining("key prefix");
	}

	@Test
	void aValueTheSerializerCannotWriteNamesItsKey() {
		ShardedTemplate<Object> template = template(namespace().build(), JAVA);
		Object notSerializable = new Object();
		assertNamesKey(() -> template.set(key(template, 1), notSerializable), key(template, 1));
		assertNamesKey(() -> template.set(key(template, 1), notSerializable, Duration.ofMinutes(1)), key(template, 1));
		assertNamesKey(() -> template.setIfAbsent(key(template, 2), notSerializable), key(template, 2));
		assertNamesKey(() -> template.multiSet(Map.of(key(template, 3), notSerializable)), key(template, 3));
		assertThat(template.exists(key(template, 1))).isFalse();
	}

	@Test
	void getOfAValueTheSerializerCannotReadNamesItsKey() {
		ShardedTemplate<Object> template = template(namespace().build(), JAVA);
		redis().hset(template.namespace().ownedKeyPrefix() + "n:0}", "5", "not java serialization");
		assertThat(assertNamesKey(() -> template.get(key(template, 5)), key(template, 5)))
			.hasMessageContaining(template.namespace().name());
	}

	@Test
	void multiGetNamesTheKeyItCannotRead() {
		ShardedTemplate<Object> template = template(namespace().build(), JAVA);
		template.set(key(template, 1), "readable");
		redis().hset(template.namespace().ownedKeyPrefix() + "n:0}", "5", "not java serialization");
		assertNamesKey(() -> template.multiGet(List.of(key(template, 1), key(template, 5))), key(template, 5));
	}

	@Test
	void forEachNamesTheKeyItCannotRead() {
		ShardedTemplate<Object> template = template(namespace().build(), JAVA);
		redis().hset(template.namespace().ownedKeyPrefix() + "n:0}", "5", "not java serialization");
		assertNamesKey(() -> template.forEach((key, value) -> {
		}), key(template, 5));
	}

	@Test
	void anIncrementRedisRefusesNamesTheKey() {
		ShardedTemplate<String> template = template(namespace().build(), STRINGS);
		template.set(key(template, 1), "abc");
		assertThatExceptionOfType(RedisSystemException.class).isThrownBy(() -> template.incrByFloat(key(template, 1), 1))
			.withMessageContaining("'" + key(template, 1) + "'");
	}

	@Test
	void migratorLeavesAPlainValueTheSerializerCannotReadInPlace() {
		ShardedTemplate<Object> template = template(namespace().build(), JAVA);
		redis().set(key(template, 1), "not java serialization");
		assertThat(template.migrator().migrate(10, null)).isEqualTo(new MigrationProgress(1, 0, 0, 1, 0, true));
		assertThat(redis().get(key(template, 1))).isEqualTo("not java serialization");
	}

	static Throwable assertNamesKey(ThrowingCallable call, String key) {
		Throwable thrown = catchThrowable(call);
		assertThat(thrown).isInstanceOf(KeyedSerializationException.class).hasMessageContaining("key '" + key + "'");
		assertThat(((KeyedSerializationException) thrown).key()).isEqualTo(key);
		return thrown;
	}

	List<String> overflowKeys(ShardedTemplate<?> template) {
		return scanKeys(KeyPlacement.escapeGlob(template.namespace().ownedKeyPrefix()) + "*}:*");
	}

	List<String> scanKeys(String pattern) {
		return redis().keys(pattern);
	}

}
