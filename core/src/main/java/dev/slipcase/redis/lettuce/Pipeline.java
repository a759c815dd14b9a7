package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.RedisCommand;

/**
 * Commands collected and then written to one database's connection in one write and one flush
 * (pipelined; on a cluster, Lettuce splits them by node), for callers that issue commands in
 * bursts. Each command is its own future, completed when Redis replies to it; cancelling one
 * cancels the command. Filled by one thread, sent once; other callers' commands may interleave on
 * the shared connection, so a pipeline is no transaction.
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
public final class Pipeline<K, V> {

	private final ConnectionHolder<K, V> connections;

	private final int database;

	private final List<RedisCommand<K, V, ?>> commands = new ArrayList<>();

	private boolean sent;

	/** An empty pipeline to {@code database} of {@code connections}. */
	public Pipeline(ConnectionHolder<K, V> connections, int database) {
		this.connections = connections;
		this.database = database;
	}

	/**
	 * Adds {@code command}.
	 * @return {@code command}
	 * @throws IllegalStateException when the pipeline was already sent
	 */
	public <T, C extends AsyncCommand<K, V, T>> C add(C command) {
		checkNotSent();
		this.commands.add(command);
		return command;
	}

	/**
	 * Adds {@code EVALSHA} of {@code script}. When the server does not have the script cached
	 * ({@code NOSCRIPT}), the script is sent again alone, with {@code EVAL}, which caches it.
	 * @param output makes the output for each attempt
	 * @param keys the script's {@code KEYS}
	 * @param argv adds the script's {@code ARGV}, called for each attempt
	 * @return the reply of whichever attempt ran the script; cancelling it cancels that attempt
	 */
	public <T> CompletableFuture<T> script(LuaScript script, Supplier<? extends CommandOutput<K, V, T>> output,
			List<K> keys, Consumer<CommandArgs<K, V>> argv) {
		AsyncCommand<K, V, T> first = add(script.evalsha(this.connections.codec(), output.get(), keys, argv));
		ScriptCall<T> call = new ScriptCall<>(first);
		first.whenComplete((result, ex) -> {
			if (ex == null) {
				call.complete(result);
				return;
			}
			Throwable cause = RedisFailures.unwrap(ex);
			if (!(cause instanceof RedisNoScriptException) || call.isDone()) {
				call.completeExceptionally(cause);
				return;
			}
			AsyncCommand<K, V, T> retry = script.eval(this.connections.codec(), output.get(), keys, argv);
			call.follow(retry);
			if (!retry.isDone()) {
				this.connections.send(this.database, retry);
			}
		});
		return call;
	}

	/** The number of commands added so far. */
	public int size() {
		return this.commands.size();
	}

	/**
	 * Writes every command added, at once or as soon as the connection is open; a connection that
	 * cannot be opened fails every command.
	 * @throws IllegalStateException when the pipeline was already sent
	 */
	public void send() {
		checkNotSent();
		this.sent = true;
		this.connections.send(this.database, List.copyOf(this.commands));
	}

	private void checkNotSent() {
		if (this.sent) {
			throw new IllegalStateException("The batch was already executed; start a new one");
		}
	}

	/** The reply of a script, whichever attempt gives it; cancelling it cancels the attempt under way. */
	private static final class ScriptCall<T> extends CompletableFuture<T> {

		private volatile CompletableFuture<?> attempt;

		ScriptCall(CompletableFuture<?> first) {
			this.attempt = first;
		}

		<R extends T> void follow(CompletableFuture<R> next) {
			this.attempt = next;
			next.whenComplete((result, ex) -> {
				if (ex == null) {
					complete(result);
				}
				else {
					completeExceptionally(RedisFailures.unwrap(ex));
				}
			});
			if (isCancelled()) {
				next.cancel(false);
			}
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			boolean cancelled = super.cancel(mayInterruptIfRunning);
			this.attempt.cancel(mayInterruptIfRunning);
			return cancelled;
		}

	}

}
