package dev.slipcase.redis.template;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.serializer.ValueFormat;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.AsyncCommand;
import io.netty.buffer.ByteBufAllocator;

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

	private final TemplateConnections connections;

	private final int database;

	AsyncValueTemplate(TemplateConnections connections, int database, ValueFormat<V> format,
			ByteBufAllocator allocator) {
		super(format, allocator, connections.isCluster());
		this.connections = connections;
		this.database = database;
	}

	/**
	 * A new, empty batch on the same database: commands collected and written to the connection
	 * in one go by {@link ValueBatch#execute()}.
	 */
	public ValueBatch<V> batch() {
		return new ValueBatch<>(this.connections, this.database, this.format, this.allocator);
	}

	/** The database this template's commands go to. */
	public int database() {
		return this.database;
	}

	@Override
	<T> CompletableFuture<T> submit(AsyncCommand<String, EncodedValue, T> command) {
		CompletableFuture<StatefulConnection<String, EncodedValue>> connection = this.connections.get(this.database);
		if (connection.isDone() && !connection.isCompletedExceptionally()) {
			dispatch(connection.join(), command);
		}
		else {
			connection.whenComplete((open, ex) -> {
				if (ex != null) {
					command.completeExceptionally(unwrap(ex));
				}
				else {
					dispatch(open, command);
				}
			});
		}
		return command;
	}

	private static void dispatch(StatefulConnection<String, EncodedValue> connection,
			AsyncCommand<String, EncodedValue, ?> command) {
		try {
			connection.dispatch(command);
		}
		catch (RuntimeException ex) {
			command.completeExceptionally(ex);
		}
	}

	static Throwable unwrap(Throwable ex) {
		return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
	}

}
