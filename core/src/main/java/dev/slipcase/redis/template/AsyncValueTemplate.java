package dev.slipcase.redis.template;

import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.metrics.ObservedCall;
import dev.slipcase.redis.metrics.SlipcaseObservationContext;
import dev.slipcase.redis.metrics.SlipcaseObservationDocumentation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

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

	private final ObservationRegistry observations;

	AsyncValueTemplate(CommandChannel<String, EncodedValue> channel, TemplateSettings<V> settings) {
		super(settings.format(), settings.allocator(), channel.isCluster(), settings.unacknowledgedWrites(),
				settings.nearValues());
		this.channel = channel;
		this.observations = settings.observations();
	}

	/**
	 * A new, empty batch on the same database: commands collected and written to the connection
	 * in one go by {@link ValueBatch#execute()}.
	 */
	public ValueBatch<V> batch() {
		return new ValueBatch<>(this.channel, this.format, this.allocator, this.unacknowledgedWrites, this.near);
	}

	/** The database this template's commands go to. */
	public int database() {
		return this.channel.database();
	}

	/** Where this template's commands go, for the sync paths that wait for them. */
	CommandChannel<String, EncodedValue> channel() {
		return this.channel;
	}

	@Override
	@SuppressWarnings("try")
	<T> CompletableFuture<T> submit(TemplateCommand<T> command) {
		if (this.observations.isNoop()) {
			return this.channel.send(command);
		}
		ObservedCall call = SlipcaseObservationDocumentation.COMMAND.start(this.observations,
				command.getType().toString(), SlipcaseObservationContext.NO_NAMESPACE, this.format.name());
		command.observeWith(call);
		CompletableFuture<T> sent;
		// current while Lettuce dispatches: its own command observation nests under this one
		try (Observation.Scope scope = call.openScope()) {
			sent = this.channel.send(command);
		}
		catch (RuntimeException ex) {
			call.stop(ex);
			throw ex;
		}
		return sent;
	}

}
