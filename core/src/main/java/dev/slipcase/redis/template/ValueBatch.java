package dev.slipcase.redis.template;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.CommandChannel;
import dev.slipcase.redis.lettuce.Pipeline;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Many commands written to the connection in one write and one flush (pipelined) by
 * {@link #execute()}, for callers that issue commands in bursts. Each operation returns its own
 * future, completed when Redis replies to that command; {@link #execute()} returns a future that
 * completes when every command has, and fails when any failed, so a write Redis did not
 * acknowledge is never reported as done. A caller that does not need the results may ignore the
 * futures (fire and forget).
 * <pre class="code">
 * ValueBatch&lt;Order&gt; batch = template.batch();
 * orders.forEach((id, order) -&gt; batch.set("order:" + id, order));
 * batch.execute().join();
 * </pre>
 * Filled by one thread, then executed once; not reusable. Commands in one batch go out in order on
 * the shared connection but are not a transaction: other callers' commands may interleave.
 *
 * @param <V> the type of values
 */
public final class ValueBatch<V> extends ValueOperations<V> {

	private final Pipeline<String, EncodedValue> pipeline;

	/** The futures of the operations that failed before sending anything. */
	private final List<CompletableFuture<?>> rejected = new ArrayList<>();

	ValueBatch(CommandChannel<String, EncodedValue> channel, TemplateSettings<V> settings,
			@Nullable NearValues<V> near) {
		this(channel.pipeline(), channel.isCluster(), settings, near);
	}

	private ValueBatch(Pipeline<String, EncodedValue> pipeline, boolean cluster, TemplateSettings<V> settings,
			@Nullable NearValues<V> near) {
		super(pipeline, cluster, settings, near, ObservationRegistry.NOOP);
		this.pipeline = pipeline;
	}

	/** A batch's reads go to Redis: a fetch others could join would wait for {@link #execute()}. */
	@Override
	boolean readsThroughNear() {
		return false;
	}

	/** The number of commands collected so far. */
	public int size() {
		return this.pipeline.size();
	}

	/**
	 * Writes every collected command in one go.
	 * @return a future completing when every command has completed, exceptionally when any
	 * failed (with the first failure)
	 * @throws IllegalStateException when the batch was already executed
	 */
	public CompletableFuture<Void> execute() {
		this.pipeline.send();
		List<CompletableFuture<?>> futures = new ArrayList<>(this.pipeline.commands());
		futures.addAll(this.rejected);
		return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
	}

	@Override
	<T> CompletableFuture<T> rejected(RuntimeException ex) {
		CompletableFuture<T> failed = super.rejected(ex);
		this.rejected.add(failed);
		return failed;
	}

}
