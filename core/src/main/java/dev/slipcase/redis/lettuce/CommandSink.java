package dev.slipcase.redis.lettuce;

/**
 * Where a template's commands go: a {@link CommandChannel} writes each at once, a {@link Pipeline}
 * holds them for one write.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public interface CommandSink<K, V> {

	/**
	 * Writes {@code command}, or holds it for a later write.
	 * @return {@code command}, which completes when Redis replies
	 */
	<T, C extends SlipcaseCommand<K, V, T>> C submit(C command);

}
