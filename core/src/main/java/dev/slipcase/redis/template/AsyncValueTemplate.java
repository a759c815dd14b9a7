package dev.slipcase.redis.template;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;

/**
 * The {@code CompletableFuture} form of a {@link ValueTemplate}: every operation is written to the
 * database's shared connection at once and its future completes when Redis replies. Obtain one
 * with {@link ValueTemplate#async()}. Immutable and thread-safe.
 * <p>
 * Cancelling a returned future cancels the command; its pooled buffers are released whether or
 * not it was already written.
 *
 * @param <V> the type of values
 */
public final class AsyncValueTemplate<V> extends ValueOperations<V> {

	private final CommandChannel<String, EncodedValue> channel;

	private final TemplateSettings<V> settings;

	AsyncValueTemplate(CommandChannel<String, EncodedValue> channel, TemplateSettings<V> settings) {
		super(channel, channel.isCluster(), settings, settings.nearValues(), settings.observations());
		this.channel = channel;
		this.settings = settings;
	}

	/**
	 * A new, empty batch on the same database: commands collected and written to the connection
	 * in one go by {@link ValueBatch#execute()}.
	 */
	public ValueBatch<V> batch() {
		return new ValueBatch<>(this.channel, this.settings, this.near);
	}

	/** The database this template's commands go to. */
	public int database() {
		return this.channel.database();
	}

	/** Where this template's commands go, for the sync paths that wait for them. */
	CommandChannel<String, EncodedValue> channel() {
		return this.channel;
	}

}
