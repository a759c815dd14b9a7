package dev.slipcase.redis.springdata;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.ListOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SetOperations;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A {@code RedisTemplate} whose value, hash, list, set and sorted-set operations (and the bound
 * operations built on them) name the Redis key in every {@link SerializationException}: a value
 * that cannot be written or read fails with a {@link KeyedSerializationException} naming the
 * operation's key (the keys, for a multi-key operation). Otherwise exactly Spring Data's
 * {@code RedisTemplate}. Configure it with {@link SlipcaseSerializerFamily#configure}.
 *
 * @param <K> the type of key
 * @param <V> the type of value
 */
public class SlipcaseRedisTemplate<K, V> extends RedisTemplate<K, V> {

	private @Nullable ValueOperations<K, V> valueOperations;

	private @Nullable HashOperations<K, ?, ?> hashOperations;

	private @Nullable ListOperations<K, V> listOperations;

	private @Nullable SetOperations<K, V> setOperations;

	private @Nullable ZSetOperations<K, V> zSetOperations;

	/** A template to configure, and then initialize with {@link #afterPropertiesSet()}. */
	public SlipcaseRedisTemplate() {
	}

	/**
	 * A template over {@code connectionFactory} with the family's serializers, initialized.
	 * @param connectionFactory the connection factory, never {@code null}
	 * @param family the serializers, never {@code null}
	 */
	public static SlipcaseRedisTemplate<String, Object> create(RedisConnectionFactory connectionFactory,
			SlipcaseSerializerFamily family) {
		Assert.notNull(connectionFactory, "connectionFactory must not be null");
		SlipcaseRedisTemplate<String, Object> template = new SlipcaseRedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		family.configure(template);
		template.afterPropertiesSet();
		return template;
	}

	@Override
	public ValueOperations<K, V> opsForValue() {
		ValueOperations<K, V> operations = this.valueOperations;
		if (operations == null) {
			operations = keyNaming(ValueOperations.class, super.opsForValue());
			this.valueOperations = operations;
		}
		return operations;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <HK, HV> HashOperations<K, HK, HV> opsForHash() {
		HashOperations<K, ?, ?> operations = this.hashOperations;
		if (operations == null) {
			operations = keyNaming(HashOperations.class, super.opsForHash());
			this.hashOperations = operations;
		}
		return (HashOperations<K, HK, HV>) operations;
	}

	@Override
	public ListOperations<K, V> opsForList() {
		ListOperations<K, V> operations = this.listOperations;
		if (operations == null) {
			operations = keyNaming(ListOperations.class, super.opsForList());
			this.listOperations = operations;
		}
		return operations;
	}

	@Override
	public SetOperations<K, V> opsForSet() {
		SetOperations<K, V> operations = this.setOperations;
		if (operations == null) {
			operations = keyNaming(SetOperations.class, super.opsForSet());
			this.setOperations = operations;
		}
		return operations;
	}

	@Override
	public ZSetOperations<K, V> opsForZSet() {
		ZSetOperations<K, V> operations = this.zSetOperations;
		if (operations == null) {
			operations = keyNaming(ZSetOperations.class, super.opsForZSet());
			this.zSetOperations = operations;
		}
		return operations;
	}

	private static <T> T keyNaming(Class<?> type, Object operations) {
		return KeyNamingOperations.of(type, operations);
	}

}
