package dev.slipcase.redis.autoconfigure.cache;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.slipcase.redis.metrics.SlipcaseObserver;
import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseSerializers;
import dev.slipcase.redis.serializer.format.TypeAllowlist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CacheValueSerializerTests {

	private static final byte[] KEY = "orders::41".getBytes(StandardCharsets.UTF_8);

	private final RedisSerializer<Object> delegate = SlipcaseSerializers
		.json(TypeAllowlist.builder().allow("text", String.class).allow("decimal", BigDecimal.class).build());

	private final CacheValueSerializer serializer = new CacheValueSerializer("orders", this.delegate,
			List.of(String.class), "String (from Names.find(long))", true, SlipcaseObserver.NOOP);

	@AfterEach
	void forgetKeys() {
		CacheKeyContext.forgetWritingKey();
		CacheKeyContext.takeReading(new byte[0]);
	}

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

	@Test
	void readsAnAllowedValueOfAnotherTypeThanTheCacheStoresAsNull() {
		assertThat(this.serializer.deserialize(this.delegate.serialize(BigDecimal.TEN))).isNull();
	}

	@Test
	void refusesToWriteAValueOfAnotherTypeNamingTheKeyTheCacheSerialized() {
		CacheKeyContext.keySerialized("orders::41");
		assertThatExceptionOfType(KeyedSerializationException.class)
			.isThrownBy(() -> this.serializer.serialize(BigDecimal.ONE))
			.withMessage("key 'orders::41': cache 'orders' stores String (from Names.find(long)), not java.math.BigDecimal");
	}

	@Test
	void namesTheKeyTheWriterFetchedWhenUnusableEntriesAreErrors() {
		CacheValueSerializer strict = new CacheValueSerializer("orders", this.delegate, List.of(String.class),
				"String", false, SlipcaseObserver.NOOP);
		byte[] garbage = "{not json".getBytes(StandardCharsets.UTF_8);
		CacheKeyContext.valueFetched(KEY, garbage, null);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> strict.deserialize(garbage.clone()))
			.withMessageStartingWith("key 'orders::41': ");
	}

	@Test
	void namesNoKeyForBytesTheWriterDidNotFetch() {
		CacheValueSerializer strict = new CacheValueSerializer("orders", this.delegate, List.of(String.class),
				"String", false, SlipcaseObserver.NOOP);
		CacheKeyContext.valueFetched(KEY, "[\"text\",\"other\"]".getBytes(StandardCharsets.UTF_8), null);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> strict.deserialize("{not json".getBytes(StandardCharsets.UTF_8)))
			.isNotInstanceOf(KeyedSerializationException.class);
	}

	@Test
	void aKeyIsNamedForOneWriteOnly() {
		CacheKeyContext.keySerialized("orders::41");
		this.serializer.serialize("value");
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> this.serializer.serialize(BigDecimal.ONE))
			.isNotInstanceOf(KeyedSerializationException.class);
	}

}
