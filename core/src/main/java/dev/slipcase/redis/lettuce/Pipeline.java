package dev.slipcase.redis.lettuce;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import org.jspecify.annotations.Nullable;

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
public final class Pipeline<K, V> implements CommandSink<K, V> {

	/**
	 * How long a script that cluster nodes answer {@code TRYAGAIN} is sent again at most, unless its
	 * call is given up first (a blocking or reactive caller's timeout): longer than an operator's
	 * reshard takes to move a slot, short of a migration left half done.
	 */
	public static final long TRY_AGAIN_MILLIS = TimeUnit.MINUTES.toMillis(10);

	private static final long LONGEST_PAUSE_MILLIS = 100;

	private final ConnectionHolder<K, V> connections;

	private final int database;

	private final List<SlipcaseCommand<K, V, ?>> commands = new ArrayList<>();

	private boolean sent;

	/** An empty pipeline to {@code database} of {@code connections}. */
	public Pipeline(ConnectionHolder<K, V> connections, int database) {
		this.connections = connections;
		this.database = database;
	}

	/**
	 * Adds {@code command}, written by {@link #send()}.
	 * @return {@code command}
	 * @throws IllegalStateException when the pipeline was already sent
	 */
	@Override
	public <T, C extends SlipcaseCommand<K, V, T>> C submit(C command) {
		checkNotSent();
		this.commands.add(command);
		return command;
	}

	/**
	 * Adds {@code EVALSHA} of {@code script}. When the server does not have the script cached
	 * ({@code NOSCRIPT}), the script is sent again alone, with {@code EVAL}, which caches it. When a
	 * cluster node answers {@code TRYAGAIN} (the script's keys share a slot that is being migrated,
	 * and some are on neither side or on both: the script did not run), it is sent again alone after
	 * a pause, the pauses doubling from 5 ms to 100 ms, until the slot's migration is done and
	 * Lettuce follows the node's {@code MOVED} or {@code ASK}, the call is given up, or
	 * {@link #TRY_AGAIN_MILLIS} passed.
	 * @param output makes the output for each attempt
	 * @param keys the script's {@code KEYS}
	 * @param argv adds the script's {@code ARGV}, called for each attempt
	 * @return the reply of whichever attempt ran the script; cancelling it cancels that attempt and
	 * every later one
	 */
	public <T> CompletableFuture<T> script(LuaScript script, Supplier<? extends CommandOutput<K, V, T>> output,
			List<K> keys, Consumer<CommandArgs<K, V>> argv) {
		return script(script, output, keys, argv, null);
	}

	/**
	 * Adds {@code EVALSHA} of {@code script} as {@link #script(LuaScript, Supplier, List, Consumer)}
	 * does, except that after a {@code TRYAGAIN} the script is first sent on its first key alone,
	 * which a node migrating the slot runs or redirects with {@code ASK} wherever that key is,
	 * Redis refusing only commands naming several keys mid-migration. A script that needs its other
	 * keys for this call answers so ({@code needsEveryKey}), having changed nothing, and is sent
	 * with every key again, waiting out the migration.
	 * @param needsEveryKey whether a reply of the script run on its first key alone says it needs
	 * every key; {@code null} for a script that never runs on its first key alone
	 */
	public <T> CompletableFuture<T> script(LuaScript script, Supplier<? extends CommandOutput<K, V, T>> output,
			List<K> keys, Consumer<CommandArgs<K, V>> argv, @Nullable Predicate<T> needsEveryKey) {
		SlipcaseCommand<K, V, T> first = submit(script.evalsha(this.connections.codec(), output.get(), keys, argv));
		ScriptCall<T> call = new ScriptCall<>(first);
		new ScriptAttempts<>(call, script, output, keys, argv, needsEveryKey).follow(first, false, 0, false);
		return call;
	}

	/** The number of commands added so far. */
	public int size() {
		return this.commands.size();
	}

	/** The commands added so far, each completing when Redis replies to it. */
	public List<SlipcaseCommand<K, V, ?>> commands() {
		return Collections.unmodifiableList(this.commands);
	}

	/**
	 * Writes every command added, at once or as soon as the connection is open; a connection that
	 * cannot be opened fails every command.
	 * @throws IllegalStateException when the pipeline was already sent
	 */
	public void send() {
		checkNotSent();
		this.sent = true;
		this.connections.dispatcher(this.database).send(List.copyOf(this.commands));
	}

	private void checkNotSent() {
		if (this.sent) {
			throw new IllegalStateException("The batch was already executed; start a new one");
		}
	}

	/** The attempts at one script call, each sent when the one before it was refused without running. */
	private final class ScriptAttempts<T> {

		private final ScriptCall<T> call;

		private final LuaScript script;

		private final Supplier<? extends CommandOutput<K, V, T>> output;

		private final List<K> keys;

		private final Consumer<CommandArgs<K, V>> argv;

		private final @Nullable Predicate<T> needsEveryKey;

		/** When the first {@code TRYAGAIN} came, 0 before. */
		private long firstTryAgainNanos;

		ScriptAttempts(ScriptCall<T> call, LuaScript script, Supplier<? extends CommandOutput<K, V, T>> output,
				List<K> keys, Consumer<CommandArgs<K, V>> argv, @Nullable Predicate<T> needsEveryKey) {
			this.call = call;
			this.script = script;
			this.output = output;
			this.keys = keys;
			this.argv = argv;
			this.needsEveryKey = needsEveryKey;
		}

		/**
		 * Completes the call with {@code attempt}'s outcome, or sends another attempt when it was
		 * refused without running.
		 * @param evaluated whether {@code attempt} sent the script's source ({@code EVAL})
		 * @param tryAgains how many {@code TRYAGAIN}s came before {@code attempt}
		 * @param alone whether {@code attempt} named the first key alone
		 */
		void follow(SlipcaseCommand<K, V, T> attempt, boolean evaluated, int tryAgains, boolean alone) {
			attempt.whenComplete((result, ex) -> {
				if (this.call.isDone()) {
					return;
				}
				if (ex == null) {
					if (alone && this.needsEveryKey.test(result)) {
						pauseAndSendAgain(evaluated, tryAgains);
					}
					else {
						this.call.complete(result);
					}
					return;
				}
				Throwable cause = RedisFailures.unwrap(ex);
				if (cause instanceof RedisNoScriptException && !evaluated) {
					sendAgain(true, tryAgains, alone);
				}
				else if (RedisFailures.isTryAgain(cause) && tryAgains == 0 && this.needsEveryKey != null
						&& this.keys.size() > 1) {
					this.firstTryAgainNanos = System.nanoTime();
					sendAgain(evaluated, 1, true);
				}
				else if (RedisFailures.isTryAgain(cause) && !tryingTooLong(tryAgains)) {
					pauseAndSendAgain(evaluated, tryAgains);
				}
				else {
					this.call.completeExceptionally(cause);
				}
			});
		}

		private boolean tryingTooLong(int tryAgains) {
			if (tryAgains == 0) {
				this.firstTryAgainNanos = System.nanoTime();
				return false;
			}
			return System.nanoTime() - this.firstTryAgainNanos > TimeUnit.MILLISECONDS.toNanos(TRY_AGAIN_MILLIS);
		}

		/** Sends the script on every key again after a pause that doubles with each {@code TRYAGAIN}. */
		private void pauseAndSendAgain(boolean evaluated, int tryAgains) {
			long pause = Math.min(LONGEST_PAUSE_MILLIS, 5L << Math.min(tryAgains, 5));
			Executor later = CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS);
			later.execute(() -> sendAgain(evaluated, tryAgains + 1, false));
		}

		private void sendAgain(boolean evaluate, int tryAgains, boolean alone) {
			if (this.call.isDone()) {
				return;
			}
			RedisCodec<K, V> codec = Pipeline.this.connections.codec();
			List<K> keys = alone ? this.keys.subList(0, 1) : this.keys;
			SlipcaseCommand<K, V, T> next = evaluate ? this.script.eval(codec, this.output.get(), keys, this.argv)
					: this.script.evalsha(codec, this.output.get(), keys, this.argv);
			this.call.attempt(next);
			follow(next, evaluate, tryAgains, alone);
			if (!next.isDone()) {
				Pipeline.this.connections.dispatcher(Pipeline.this.database).send(next);
			}
		}

	}

	/** The reply of a script, whichever attempt gives it; cancelling it cancels the attempt under way. */
	private static final class ScriptCall<T> extends CompletableFuture<T> {

		private volatile CompletableFuture<?> attempt;

		ScriptCall(CompletableFuture<?> first) {
			this.attempt = first;
		}

		/** Makes {@code next} the attempt under way, cancelled at once when the call already is. */
		void attempt(CompletableFuture<?> next) {
			this.attempt = next;
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
