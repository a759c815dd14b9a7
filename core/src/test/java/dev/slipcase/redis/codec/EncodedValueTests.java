package dev.slipcase.redis.codec;

import java.nio.charset.StandardCharsets;

import dev.slipcase.redis.testformat.PickyFormat;
import dev.slipcase.redis.testformat.Utf8TestFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.serializer.SerializationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link EncodedValue}: serialized on the caller's thread, written any number of times
 * (Lettuce re-encodes a command after a reconnect), freed exactly once, never under a writer.
 */
class EncodedValueTests {

	@Test
	void writesTheSameBytesEveryTimeSoARetriedCommandSendsThemAgain() {
		EncodedValue value = EncodedValue.encode(Utf8TestFormat.INSTANCE, "payload", PooledByteBufAllocator.DEFAULT);
		ByteBuf target = Unpooled.buffer();
		try {
			value.writeTo(target);
			value.writeTo(target);
			assertThat(target.toString(StandardCharsets.UTF_8)).isEqualTo("payloadpayload");
			assertThat(value.size()).isEqualTo(7);
		}
		finally {
			value.release();
			target.release();
		}
	}

	@Test
	void anArrayValueIsWrittenAndHandedOutWithoutACopyUntilItsOwnerReleasesIt() {
		byte[] bytes = "abc".getBytes(StandardCharsets.UTF_8);
		EncodedValue value = EncodedValue.of(bytes);
		ByteBuf target = Unpooled.buffer();
		try {
			value.writeTo(target);
			value.writeTo(target);
			assertThat(target.toString(StandardCharsets.UTF_8)).isEqualTo("abcabc");
			assertThat(value.toByteArray()).isSameAs(bytes);
			assertThat(value.startsWith((byte) 'a')).isTrue();
			assertThat(value.pin()).isTrue();
			value.release();
			value.writeTo(target); // the party that pinned it may still write it
			value.unpin();
			assertThatIllegalStateException().isThrownBy(() -> value.writeTo(target))
				.withMessageContaining("released before it was written");
			assertThatIllegalStateException().isThrownBy(value::toByteArray);
		}
		finally {
			target.release();
		}
	}

	@Test
	void releaseFreesTheBufferOnceAndIsIdempotent() {
		ByteBuf bytes = Unpooled.copiedBuffer("abc", StandardCharsets.UTF_8);
		EncodedValue value = EncodedValue.wrap(bytes);
		value.release();
		value.release();
		assertThat(bytes.refCnt()).isZero();
		assertThat(value.isReleased()).isTrue();
	}

	@Test
	void writingAReleasedValueFailsInsteadOfReadingFreedMemory() {
		EncodedValue value = EncodedValue.wrap(Unpooled.copiedBuffer("abc", StandardCharsets.UTF_8));
		value.release();
		ByteBuf target = Unpooled.buffer();
		try {
			assertThatIllegalStateException().isThrownBy(() -> value.writeTo(target))
				.withMessageContaining("released before it was written");
		}
		finally {
			target.release();
		}
	}

	@Test
	void releaseDuringAWriteIsDeferredUntilTheWriteFinishes() {
		ByteBuf bytes = Unpooled.copiedBuffer("abcdef", StandardCharsets.UTF_8);
		EncodedValue value = EncodedValue.wrap(bytes);
		// a target that, in the middle of the copy, sees the command cancelled on another thread
		ByteBuf target = new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, 16, 64) {
			@Override
			public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
				value.release();
				assertThat(bytes.refCnt()).as("freed under the writer").isEqualTo(1);
				return super.setBytes(index, src, srcIndex, length);
			}
		};
		try {
			value.writeTo(target);
			assertThat(target.toString(StandardCharsets.UTF_8)).isEqualTo("abcdef");
			assertThat(bytes.refCnt()).isZero();
		}
		finally {
			target.release();
		}
	}

	@Test
	void aValueThatCannotBeSerializedFailsOnTheCallersThreadAndLeaksNothing() {
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> EncodedValue.encode(PickyFormat.INSTANCE, "unwritable value", PooledByteBufAllocator.DEFAULT))
			.withMessageContaining("refuses to write");
	}

}
