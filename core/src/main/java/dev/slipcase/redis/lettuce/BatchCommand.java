package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * Pipelined commands to one connection as one Lettuce command, and its own output: {@link #encode}
 * writes each of its commands not done yet, and each reply goes, in order, to its command's output,
 * completing that command as the reply ends. Only a {@link MultiReplyCommandHandler} keeps it on the
 * stack until the last reply; one that reaches a stock handler writes {@code PING} in their place,
 * and its commands are then dispatched one by one. Written again after a reconnect, it writes those
 * of its commands still not done, each as Lettuce would write it again (a write's
 * {@link ReplayGuard} writes {@code PING} in its place). An output that throws fails its own command
 * alone. Failing or cancelling it fails or cancels every command not done (a failed connection: see
 * {@link #completeExceptionally}). Lettuce counts it as one command: its request queue, replay
 * filter, timeout source and latency metrics see one {@code BATCH}. Encoded, read and completed on
 * the connection's event loop; holds no buffer (its commands own theirs).
 *
 * @param <K> the key type of the codec
 * @param <V> the value type of the codec
 */
final class BatchCommand<K, V> extends MultiReplyCommand<K, V, Void> {

	private final List<? extends RedisCommand<K, V, ?>> commands;

	private final StatefulConnection<K, V> connection;

	/**
	 * The commands of the last write, in order: the first {@link #received()} have their reply;
	 * none when {@code PING} went out in their place, whose reply is no command's.
	 */
	private List<? extends RedisCommand<K, V, ?>> written = List.of();

	/** A stock handler took the last write: the commands go out one by one once {@code PING} is answered. */
	private boolean notAccepted;

	/**
	 * @param commands two or more commands, none added to another batch or dispatched otherwise
	 * @param connection the connection it is dispatched on, for its commands to go out one by one
	 */
	BatchCommand(List<? extends RedisCommand<K, V, ?>> commands, StatefulConnection<K, V> connection) {
		super(unusedCodec());
		this.commands = commands;
		this.connection = connection;
	}

	/** A codec for {@code CommandOutput}, which never uses it here: each reply goes to its command's output. */
	@SuppressWarnings("unchecked")
	private static <K, V> RedisCodec<K, V> unusedCodec() {
		return (RedisCodec<K, V>) (RedisCodec<?, ?>) ByteArrayCodec.INSTANCE;
	}

	@Override
	public void encode(ByteBuf buf) {
		boolean accepted = takeAcceptance();
		this.notAccepted = !accepted;
		List<? extends RedisCommand<K, V, ?>> undone = accepted ? undone(this.commands) : List.of();
		this.written = undone;
		if (undone.isEmpty()) {
			writePing(buf);
			return;
		}
		expect(undone.size());
		for (RedisCommand<K, V, ?> command : undone) {
			command.encode(buf);
		}
	}

	/**
	 * The commands of {@code commands} not done, in order, as Lettuce leaves a done command out of a
	 * write: {@code commands} itself when none is.
	 */
	private static <C extends RedisCommand<?, ?, ?>> List<C> undone(List<C> commands) {
		int done = 0;
		for (C command : commands) {
			done += command.isDone() ? 1 : 0;
		}
		if (done == 0) {
			return commands;
		}
		List<C> undone = new ArrayList<>(commands.size() - done);
		for (C command : commands) {
			if (!command.isDone()) {
				undone.add(command);
			}
		}
		return undone;
	}

	/** Lettuce read the last reply ({@link MultiReplyCommandHandler#canComplete}), or a stock handler the first. */
	@Override
	public void complete() {
		if (markDone() && this.notAccepted) {
			OrderedDispatcher.dispatchSeparately(this.connection, undone(this.commands));
		}
	}

	/**
	 * Fails every command not done with {@code failure}; except that when the connection failed
	 * ({@code IOException}) while its replies were read, only the command awaiting its reply fails,
	 * as Lettuce fails the oldest command of its stack, and the others are dispatched again one by
	 * one, as Lettuce sends what is left of its stack again after a reconnect (a written write's
	 * guard writing {@code PING} in its place).
	 */
	@Override
	public boolean completeExceptionally(Throwable failure) {
		if (!markDone()) {
			return false;
		}
		if (failure instanceof IOException && received() < this.written.size()) {
			this.written.get(received()).completeExceptionally(failure);
			List<? extends RedisCommand<K, V, ?>> undone = undone(this.commands);
			if (!undone.isEmpty()) {
				OrderedDispatcher.dispatchSeparately(this.connection, undone);
			}
			return true;
		}
		for (RedisCommand<K, V, ?> command : this.commands) {
			if (!command.isDone()) {
				command.completeExceptionally(failure);
			}
		}
		return true;
	}

	@Override
	public void cancel() {
		if (!markDone()) {
			return;
		}
		for (RedisCommand<K, V, ?> command : this.commands) {
			if (!command.isDone()) {
				command.cancel();
			}
		}
	}

	@Override
	public ProtocolKeyword getType() {
		return BlockKeyword.BATCH;
	}

	@Override
	public @Nullable Void get() {
		return null;
	}

	/** The output of the command whose reply is being read, {@code null} for the reply to {@code PING}. */
	@Override
	@Nullable CommandOutput<K, V, ?> replyOutput() {
		return (received() < this.written.size()) ? this.written.get(received()).getOutput() : null;
	}

	/** Completes the command the reply answers, as Lettuce completes one. */
	@Override
	void replyRead() {
		if (received() >= this.written.size()) {
			return;
		}
		RedisCommand<K, V, ?> answered = this.written.get(received());
		try {
			answered.complete();
		}
		catch (RuntimeException ex) {
			answered.completeExceptionally(ex);
		}
	}

	/**
	 * Fails the command whose reply is being read with what its output threw, as Lettuce fails a
	 * command of its own: the rest of the reply is still read, and the other commands go on.
	 */
	@Override
	void outputFailed(RuntimeException failure) {
		this.written.get(received()).completeExceptionally(failure);
	}

	@Override
	public String toString() {
		return "batch of " + this.commands.size() + " commands";
	}

}
