package dev.slipcase.redis.lettuce;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.codec.HeldReply;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests for {@link SlipcaseCommand} and its steps: every way a command can end runs each step once
 * before and once after its future completes, releases the buffers it owns, and a write is
 * written at most once. Driven the way Lettuce drives a command (encode, output {@code set}, then
 * {@code complete()}), without a server; the servers' tests drive the same commands for real.
 */
class SlipcaseCommandTests {

	@Test
	void aRepliedCommandReleasesItsValue() {
		ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
		SlipcaseCommand<String, EncodedValue, Long> command = append(bytes);
		command.getOutput().set(1L);
		command.complete();
		assertThat(command.join()).isEqualTo(1L);
		assertThat(bytes.refCnt()).isZero();
	}

	@Test
	void aFailedCancelledOrExternallyCompletedCommandReleasesItsValue() {
		for (int way = 0; way < 3; way++) {
			ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
			SlipcaseCommand<String, EncodedValue, Long> command = append(bytes);
			switch (way) {
				case 0 -> command.completeExceptionally(new IllegalStateException("connection lost"));
				case 1 -> command.cancel(false);
				default -> command.complete(42L);
			}
			assertThat(bytes.refCnt()).as("way %d", way).isZero();
		}
	}

	@Test
	void stepsRunInOrderBeforeTheFutureCompletesWithTheOutcome() {
		for (int way = 0; way < 4; way++) {
			SlipcaseCommand<String, EncodedValue, Long> command = SlipcaseCommand.write(CommandType.INCRBY,
					new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().add(1));
			RecordingStep first = new RecordingStep("first", command);
			RecordingStep second = new RecordingStep("second", command);
			List<String> seen = new ArrayList<>();
			first.seen = seen;
			second.seen = seen;
			command.with(first).with(second);
			switch (way) {
				case 0 -> {
					command.getOutput().set(7L);
					command.complete();
				}
				case 1 -> {
					command.getOutput().setError("WRONGTYPE Operation against a key holding the wrong kind of value");
					command.complete();
				}
				case 2 -> command.cancel(false);
				default -> command.completeExceptionally(new IllegalStateException("gone"));
			}
			String outcome = switch (way) {
				case 0 -> "null";
				case 1 -> RedisCommandExecutionException.class.getSimpleName();
				case 2 -> CancellationException.class.getSimpleName();
				default -> IllegalStateException.class.getSimpleName();
			};
			assertThat(seen).as("way %d", way)
				.containsExactly("first before, not done, " + outcome, "second before, not done, " + outcome);
		}
	}

	@Test
	void aHeldReplyIsAbandonedUnlessItReachedTheCaller() {
		CountingHeld delivered = new CountingHeld();
		SlipcaseCommand<String, EncodedValue, String> reply = SlipcaseCommand.read(CommandType.GET, delivered, args());
		reply.getOutput().set(ByteBuffer.wrap("v".getBytes(StandardCharsets.US_ASCII)));
		reply.complete();
		reply.cancel(false);
		assertThat(delivered.abandoned).isZero();

		for (int way = 0; way < 3; way++) {
			CountingHeld held = new CountingHeld();
			SlipcaseCommand<String, EncodedValue, String> command = SlipcaseCommand.read(CommandType.GET, held, args());
			switch (way) {
				case 0 -> command.complete(); // no value: a missing key
				case 1 -> command.cancel(false);
				default -> command.completeExceptionally(new ClosedChannelException());
			}
			assertThat(held.abandoned).as("way %d", way).isPositive();
		}
	}

	@Test
	void aWriteWrittenAgainAfterAReconnectIsAPingAndFailsAsUnknown() {
		ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
		SlipcaseCommand<String, EncodedValue, Long> command = append(bytes);
		assertThat(encoded(command)).contains("APPEND");
		assertThat(encoded(command)).isEqualTo("*1\r\n$4\r\nPING\r\n");
		command.getOutput().set(ByteBuffer.wrap("PONG".getBytes(StandardCharsets.US_ASCII)));
		command.complete();
		assertThat(command).isCompletedExceptionally();
		assertThat(catchThrowable(command::join)).hasCauseInstanceOf(UnacknowledgedWriteException.class);
		assertThat(bytes.refCnt()).isZero();
	}

	@Test
	void aWrittenWriteFailedByItsConnectionFailsAsUnknownAndOneNeverWrittenDoesNot() {
		SlipcaseCommand<String, EncodedValue, Long> written = incrBy();
		assertThat(encoded(written)).contains("INCRBY");
		ClosedChannelException closed = new ClosedChannelException();
		written.completeExceptionally(closed);
		assertThat(catchThrowable(written::join)).cause()
			.isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("INCRBY before the connection failed (ClosedChannelException)")
			.hasCause(closed);

		SlipcaseCommand<String, EncodedValue, Long> unsent = incrBy();
		unsent.completeExceptionally(closed);
		assertThat(catchThrowable(unsent::join)).hasCause(closed);
	}

	@Test
	void aWriteAbandonedBeforeItWasWrittenIsAPingAndFailsAsNotSent() {
		SlipcaseCommand<String, EncodedValue, Long> command = incrBy();
		assertThat(command.abandonIfUnsent()).isTrue();
		assertThat(encoded(command)).isEqualTo("*1\r\n$4\r\nPING\r\n");
		command.getOutput().set(ByteBuffer.wrap("PONG".getBytes(StandardCharsets.US_ASCII)));
		command.complete();
		// the failure itself: join() wraps a CancellationException in one of its own on some JDKs
		assertThat(command.handle((value, failure) -> failure).join()).isInstanceOf(CancellationException.class)
			.hasMessageContaining("INCRBY was not sent");

		SlipcaseCommand<String, EncodedValue, Long> written = incrBy();
		encoded(written);
		assertThat(written.abandonIfUnsent()).isFalse();
	}

	@Test
	void aReadIsWrittenAgainAndCannotBeAbandoned() {
		SlipcaseCommand<String, EncodedValue, Long> command = SlipcaseCommand.read(CommandType.EXISTS,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args());
		assertThat(command.abandonIfUnsent()).isFalse();
		assertThat(encoded(command)).contains("EXISTS");
		assertThat(encoded(command)).contains("EXISTS");
	}

	private static SlipcaseCommand<String, EncodedValue, Long> append(ByteBuf bytes) {
		EncodedValue value = EncodedValue.wrap(bytes);
		return SlipcaseCommand.write(CommandType.APPEND, new IntegerOutput<>(EncodedValueCodec.INSTANCE),
				args().addValue(value)).owning(value);
	}

	private static SlipcaseCommand<String, EncodedValue, Long> incrBy() {
		return SlipcaseCommand.write(CommandType.INCRBY, new IntegerOutput<>(EncodedValueCodec.INSTANCE),
				args().add(1));
	}

	private static String encoded(SlipcaseCommand<?, ?, ?> command) {
		ByteBuf buf = Unpooled.buffer();
		try {
			command.encode(buf);
			return buf.toString(StandardCharsets.UTF_8);
		}
		finally {
			buf.release();
		}
	}

	private static CommandArgs<String, EncodedValue> args() {
		return new CommandArgs<>(EncodedValueCodec.INSTANCE).addKey("k");
	}

	/** Notes when it runs, whether the command was done then, and the outcome it was given. */
	private static final class RecordingStep implements CommandStep {

		private final String name;

		private final CompletableFuture<?> command;

		private List<String> seen = new ArrayList<>();

		RecordingStep(String name, CompletableFuture<?> command) {
			this.name = name;
			this.command = command;
		}

		@Override
		public void beforeCompletion(@Nullable Throwable failure) {
			this.seen.add(this.name + " before, " + (this.command.isDone() ? "done" : "not done") + ", "
					+ ((failure != null) ? failure.getClass().getSimpleName() : "null"));
		}

	}

	/** An output holding its reply, as a pooled copy would be held: counts its abandons. */
	private static final class CountingHeld extends StatusOutput<String, EncodedValue> implements HeldReply {

		private int abandoned;

		CountingHeld() {
			super(EncodedValueCodec.INSTANCE);
		}

		@Override
		public void abandon() {
			this.abandoned++;
		}

		/** Any value is the reply's: a caller of this test completes no command itself. */
		@Override
		public boolean handedOver(@Nullable Object result) {
			return result != null;
		}

	}

}
