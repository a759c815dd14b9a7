package dev.slipcase.redis.springdata;

import dev.slipcase.redis.serializer.KeyedSerializationException;
import dev.slipcase.redis.serializer.SlipcaseSerializerFamily;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveHashOperations;
import org.springframework.data.redis.core.ReactiveListOperations;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveSetOperations;
import org.springframework.data.redis.core.ReactiveValueOperations;
import org.springframework.data.redis.core.ReactiveZSetOperations;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.SerializationException;
import org.springframework.util.Assert;

/**
 * A {@code ReactiveRedisTemplate} whose value, hash, list, set and sorted-set operations name the
 * Redis key in every {@link SerializationException}: a value that cannot be written or read fails
 * the returned {@code Mono} or {@code Flux} with a {@link KeyedSerializationException} naming the
 * operation's key (the keys, for a multi-key operation). Otherwise exactly Spring Data's
 * {@code ReactiveRedisTemplate}; the reactive twin of {@link SlipcaseRedisTemplate}, configured
 * by {@link SlipcaseSerializerFamily#serializationContext()}. Serializers write into
 * {@code byte[]}s that Spring Data wraps; no pooled buffer outlives a call.
 *
 * @param <K> the type of key
 * @param <V> the type of value
 */
public class SlipcaseReactiveRedisTemplate<K, V> extends ReactiveRedisTemplate<K, V> {

	private volatile @Nullable ReactiveValueOperations<K, V> valueOperations;

	private volatile @Nullable ReactiveHashOperations<K, ?, ?> hashOperations;

	private volatile @Nullable ReactiveListOperations<K, V> listOperations;

	private volatile @Nullable ReactiveSetOperations<K, V> setOperations;

	private volatile @Nullable ReactiveZSetOperations<K, V> zSetOperations;

	/**
	 * A template over {@code connectionFactory} with {@code serializationContext}.
	 * @param connectionFactory the connection factory, never {@code null}
	 * @param serializationContext the serializers, never {@code null}
	 */
	public SlipcaseReactiveRedisTemplate(ReactiveRedisConnectionFactory connectionFactory,
			RedisSerializationContext<K, V> serializationContext) {
		super(connectionFactory, serializationContext);
	}

	/**
	 * A template over {@code connectionFactory} with the family's serializers: UTF-8
	 * {@code String} keys and hash keys, values and hash values through
	 * {@link SlipcaseSerializerFamily#templateValueSerializer()}.
	 * @param connectionFactory the connection factory, never {@code null}
	 * @param family the serializers, never {@code null}
	 */
	public static SlipcaseReactiveRedisTemplate<String, Object> create(ReactiveRedisConnectionFactory connectionFactory,
			SlipcaseSerializerFamily family) {
		Assert.notNull(connectionFactory, "connectionFactory must not be null");
		Assert.notNull(family, "family must not be null");
		return new SlipcaseReactiveRedisTemplate<>(connectionFactory, family.serializationContext());
	}

	@Override
	public ReactiveValueOperations<K, V> opsForValue() {
		ReactiveValueOperations<K, V> operations = this.valueOperations;
		if (operations == null) {
			operations = KeyNamingOperations.of(ReactiveValueOperations.class, super.opsForValue());
			this.valueOperations = operations;
		}
		return operations;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <HK, HV> ReactiveHashOperations<K, HK, HV> opsForHash() {
		ReactiveHashOperations<K, ?, ?> operations = this.hashOperations;
		if (operations == null) {
			operations = KeyNamingOperations.of(ReactiveHashOperations.class, super.opsForHash());
			this.hashOperations = operations;
		}
		return (ReactiveHashOperations<K, HK, HV>) operations;
	}

	@Override
	public ReactiveListOperations<K, V> opsForList() {
		ReactiveListOperations<K, V> operations = this.listOperations;
		if (operations == null) {
			operations = KeyNamingOperations.of(ReactiveListOperations.class, super.opsForList());
			this.listOperations = operations;
		}
		return operations;
	}

	@Override
	public ReactiveSetOperations<K, V> opsForSet() {
		ReactiveSetOperations<K, V> operations = this.setOperations;
		if (operations == null) {
			operations = KeyNamingOperations.of(ReactiveSetOperations.class, super.opsForSet());
			this.setOperations = operations;
		}
		return operations;
	}

	@Override
	public ReactiveZSetOperations<K, V> opsForZSet() {
		ReactiveZSetOperations<K, V> operations = this.zSetOperations;
		if (operations == null) {
			operations = KeyNamingOperations.of(ReactiveZSetOperations.class, super.opsForZSet());
			this.zSetOperations = operations;
		}
		return operations;
	}

}
