package dev.slipcase.redis.template;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.serializer.ValueFormat;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBufAllocator;

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

	private final TemplateConnections connections;

	private final int database;

	private final List<AsyncCommand<String, EncodedValue, ?>> commands = new ArrayList<>();

	private final List<CompletableFuture<?>> rejected = new ArrayList<>();

	private boolean executed;

	ValueBatch(TemplateConnections connections, int database, ValueFormat<V> format, ByteBufAllocator allocator) {
		super(format, allocator, connections.isCluster());
		this.connections = connections;
		this.database = database;
	}

	/** The number of commands collected so far. */
	public int size() {
		return this.commands.size();
	}

	/**
	 * Writes every collected command in one go.
	 * @return a future completing when every command has completed, exceptionally when any
	 * failed (with the first failure)
	 * @throws IllegalStateException when the batch was already executed
	 */
	public CompletableFuture<Void> execute() {
		checkNotExecuted();
		this.executed = true;
		List<RedisCommand<String, EncodedValue, ?>> toSend = List.copyOf(this.commands);
		if (!toSend.isEmpty()) {
			this.connections.get(this.database).whenComplete((connection, ex) -> {
				if (ex != null) {
					toSend.forEach((command) -> command.completeExceptionally(AsyncValueTemplate.unwrap(ex)));
					return;
				}
				try {
					connection.dispatch(toSend);
				}
				catch (RuntimeException dispatchFailure) {
					toSend.forEach((command) -> command.completeExceptionally(dispatchFailure));
				}
			});
		}
		List<CompletableFuture<?>> all = new ArrayList<>(this.commands);
		all.addAll(this.rejected);
		return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
	}

	@Override
	<T> CompletableFuture<T> submit(AsyncCommand<String, EncodedValue, T> command) {
		checkNotExecuted();
		this.commands.add(command);
		return command;
	}

	@Override
	<T> CompletableFuture<T> rejected(RuntimeException ex) {
		CompletableFuture<T> failed = super.rejected(ex);
		this.rejected.add(failed);
		return failed;
	}

	private void checkNotExecuted() {
		if (this.executed) {
			throw new IllegalStateException("The batch was already executed; start a new one");
		}
	}

}
