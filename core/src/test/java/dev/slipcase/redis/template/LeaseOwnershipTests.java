package dev.slipcase.redis.template;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.codec.EncodedValue;
import dev.slipcase.redis.codec.EncodedValueCodec;
import dev.slipcase.redis.lettuce.SlipcaseCommand;
import dev.slipcase.redis.metrics.SlipcaseObservers;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LeaseOutput} and leases: a lease that reached the caller stays the caller's, a
 * reply it never reached is released, whichever way its command ends. Driven the way Lettuce drives
 * them (output {@code set}, then {@code complete()}), without a server.
 */
class LeaseOwnershipTests {

	@Test
	void aLeaseThatReachedTheCallerIsNotReleasedByALaterCancel() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		SlipcaseCommand<String, EncodedValue, ValueLease> command = leaseCommand(output);
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
		SlipcaseCommand<String, EncodedValue, ValueLease> command = leaseCommand(output);
		output.set(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
		command.cancel(false);
		command.complete();
		assertThat(command.isCancelled()).isTrue();
		assertThat(output.get()).isNull();
	}

	@Test
	void aReplyArrivingAfterTheCommandWasCancelledIsReleased() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		SlipcaseCommand<String, EncodedValue, ValueLease> command = leaseCommand(output);
		command.cancel(false);
		output.set(ByteBuffer.wrap("late".getBytes(StandardCharsets.UTF_8)));
		command.complete();
		assertThat(output.get()).isNull();
	}

	@Test
	void aReplyArrivingAfterTheCallerCompletedTheCommandWithALeaseOfItsOwnIsReleased() {
		for (boolean copiedFirst : new boolean[] { true, false }) {
			LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
			SlipcaseCommand<String, EncodedValue, ValueLease> command = leaseCommand(output);
			if (copiedFirst) {
				output.set(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
			}
			ValueLease own = ValueLease.of(Unpooled.copiedBuffer("own", StandardCharsets.UTF_8));
			command.complete(own); // completeOnTimeout does this
			if (!copiedFirst) {
				output.set(ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)));
			}
			command.complete();
			assertThat(output.get()).as("copied first: %s", copiedFirst).isNull();
			try (ValueLease lease = command.join()) {
				assertThat(lease).isSameAs(own);
				assertThat(lease.content().toString(StandardCharsets.UTF_8)).isEqualTo("own");
			}
		}
	}

	@Test
	void aLettuceBufferIsLeftAsItWasHandedOver() {
		LeaseOutput output = new LeaseOutput(PooledByteBufAllocator.DEFAULT, SlipcaseObservers.global());
		SlipcaseCommand<String, EncodedValue, ValueLease> command = leaseCommand(output);
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

	/** A {@code GET} into {@code output}, as {@link ValueOperations#lease} makes it. */
	private static SlipcaseCommand<String, EncodedValue, ValueLease> leaseCommand(LeaseOutput output) {
		return SlipcaseCommand.read(CommandType.GET, output, args());
	}

	private static CommandArgs<String, EncodedValue> args() {
		return new CommandArgs<>(EncodedValueCodec.INSTANCE).addKey("k");
	}

}
