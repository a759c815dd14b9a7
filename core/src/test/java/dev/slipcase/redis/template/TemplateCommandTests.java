package dev.slipcase.redis.template;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.lettuce.UnacknowledgedWriteException;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TemplateCommand}, {@link LeaseOutput} and leases: every way a command can end releases
 * the buffers it owns exactly once, and a lease that reached the caller stays the caller's. Driven
 * the way Lettuce drives them (output {@code set}, then {@code complete()}), without a server.
 */
class TemplateCommandTests {

	@Test
	void aRepliedCommandReleasesItsValue() {
		ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
		TemplateCommand<Long> command = new TemplateCommand<>(CommandType.APPEND,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args(), EncodedValue.wrap(bytes),
				UnacknowledgedWrites.FAIL);
		command.getOutput().set(1L);
		command.complete();
		assertThat(command.join()).isEqualTo(1L);
		assertThat(bytes.refCnt()).isZero();
	}

	@Test
	void aFailedCancelledOrExternallyCompletedCommandReleasesItsValue() {
		for (int way = 0; way < 3; way++) {
			ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
			TemplateCommand<Long> command = new TemplateCommand<>(CommandType.APPEND,
					new IntegerOutput<>(EncodedValueCodec.INSTANCE), args(), EncodedValue.wrap(bytes),
				UnacknowledgedWrites.FAIL);
			switch (way) {
				case 0 -> command.completeExceptionally(new IllegalStateException("connection lost"));
				case 1 -> command.cancel(false);
				default -> command.complete(42L);
			}
			assertThat(bytes.refCnt()).as("way %d", way).isZero();
		}
	}

	@Test
	void aLeaseThatReachedTheCallerIsNotReleasedByALaterCancel() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		TemplateCommand<ValueLease> command = new TemplateCommand<>(CommandType.GET, output, args(), null,
				UnacknowledgedWrites.FAIL);
		output.set(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
		command.complete();
		command.cancel(false);
		try (ValueLease lease = command.join()) {
			assertThat(lease.size()).isEqualTo(3);
			assertThat(lease.content().refCnt()).isOne();
		}
	}

	@Test
	void aReplyCopiedBeforeTheCommandIsCancelledIsReleased() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		TemplateCommand<ValueLease> command = new TemplateCommand<>(CommandType.GET, output, args(), null,
				UnacknowledgedWrites.FAIL);
		output.set(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
		command.cancel(false);
		command.complete();
		assertThat(command.isCancelled()).isTrue();
		assertThat(output.get()).isNull();
	}

	@Test
	void aReplyArrivingAfterTheCommandWasCancelledIsReleased() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		TemplateCommand<ValueLease> command = new TemplateCommand<>(CommandType.GET, output, args(), null,
				UnacknowledgedWrites.FAIL);
		command.cancel(false);
		output.set(ByteBuffer.wrap("late".getBytes(StandardCharsets.UTF_8)));
		command.complete();
		assertThat(output.get()).isNull();
	}

	@Test
	void aLettuceBufferIsLeftAsItWasHandedOver() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		TemplateCommand<ValueLease> command = new TemplateCommand<>(CommandType.GET, output, args(), null,
				UnacknowledgedWrites.FAIL);
		ByteBuffer view = ByteBuffer.wrap("xxabc".getBytes(StandardCharsets.UTF_8), 2, 3);
		output.set(view);
		assertThat(view.position()).isEqualTo(2);
		command.complete();
		try (ValueLease lease = command.join()) {
			assertThat(lease.content().toString(StandardCharsets.UTF_8)).isEqualTo("abc");
		}
	}

	@Test
	void aClosedLeaseRefusesEveryAccessorIncludingItsSize() {
		ValueLease lease = ValueLease.of(Unpooled.copiedBuffer("abc", StandardCharsets.UTF_8));
		assertThat(lease.size()).isEqualTo(3);
		lease.close();
		assertThatIllegalStateException().isThrownBy(lease::size).withMessageContaining("closed");
		assertThatIllegalStateException().isThrownBy(lease::content).withMessageContaining("closed");
		assertThatIllegalStateException().isThrownBy(() -> lease.writeTo(OutputStream.nullOutputStream()))
			.withMessageContaining("closed");
		assertThat(lease).hasToString("ValueLease[closed]");
	}

	@Test
	void aWriteWrittenAgainAfterAReconnectIsAPingAndFailsAsUnknown() {
		ByteBuf bytes = Unpooled.copiedBuffer("v", StandardCharsets.UTF_8);
		TemplateCommand<Long> command = new TemplateCommand<>(CommandType.APPEND,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().addKey("k").addValue(EncodedValue.wrap(bytes)),
				EncodedValue.wrap(bytes), UnacknowledgedWrites.FAIL);
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
		TemplateCommand<Long> written = new TemplateCommand<>(CommandType.INCRBY,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().add(1), null, UnacknowledgedWrites.FAIL);
		assertThat(encoded(written)).contains("INCRBY");
		ClosedChannelException closed = new ClosedChannelException();
		written.completeExceptionally(closed);
		assertThat(catchThrowable(written::join)).cause()
			.isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("INCRBY before the connection failed (ClosedChannelException)")
			.hasCause(closed);

		TemplateCommand<Long> unsent = new TemplateCommand<>(CommandType.INCRBY,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().add(1), null, UnacknowledgedWrites.FAIL);
		unsent.completeExceptionally(closed);
		assertThat(catchThrowable(unsent::join)).hasCause(closed);
	}

	@Test
	void aWriteOfATemplateThatResendsIsWrittenAgain() {
		TemplateCommand<Long> command = new TemplateCommand<>(CommandType.INCRBY,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().addKey("k").add(1), null,
				UnacknowledgedWrites.RESEND);
		assertThat(encoded(command)).contains("INCRBY");
		assertThat(encoded(command)).contains("INCRBY");
	}

	@Test
	void aReadIsWrittenAgain() {
		TemplateCommand<Long> command = new TemplateCommand<>(CommandType.EXISTS,
				new IntegerOutput<>(EncodedValueCodec.INSTANCE), args().addKey("k"), null, UnacknowledgedWrites.FAIL);
		assertThat(encoded(command)).contains("EXISTS");
		assertThat(encoded(command)).contains("EXISTS");
	}

	private static String encoded(TemplateCommand<?> command) {
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

}
