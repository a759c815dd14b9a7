package dev.slipcase.redis.buffer;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BufferAllocatorsTests {

	@Test
	void nettyDefaultIsTheAdaptiveAllocator() {
		assertThat(BufferAllocators.defaultAllocator()).isSameAs(ByteBufAllocator.DEFAULT)
			.isInstanceOf(AdaptiveByteBufAllocator.class);
	}

	@ParameterizedTest
	@EnumSource(AllocatorType.class)
	void directAllocatorsHandOutDirectBuffers(AllocatorType type) {
		ByteBuf buffer = BufferAllocators.allocator(type, true).buffer(16);
		try {
			assertThat(buffer.isDirect()).isTrue();
		}
		finally {
			buffer.release();
		}
	}

	@ParameterizedTest
	@EnumSource(AllocatorType.class)
	void heapAllocatorsHandOutHeapBuffers(AllocatorType type) {
		ByteBuf buffer = BufferAllocators.allocator(type, false).buffer(16);
		try {
			assertThat(buffer.isDirect()).isFalse();
			assertThat(buffer.hasArray()).isTrue();
		}
		finally {
			buffer.release();
		}
	}

	@ParameterizedTest
	@EnumSource(AllocatorType.class)
	void allocatorsAreShared(AllocatorType type) {
		assertThat(BufferAllocators.allocator(type, true)).isSameAs(BufferAllocators.allocator(type, true));
	}

	@Test
	void typesMapToNettyAllocators() {
		assertThat(BufferAllocators.allocator(AllocatorType.POOLED, false)).isInstanceOf(PooledByteBufAllocator.class);
		assertThat(BufferAllocators.allocator(AllocatorType.ADAPTIVE, false)).isInstanceOf(AdaptiveByteBufAllocator.class);
		assertThat(BufferAllocators.allocator(AllocatorType.UNPOOLED, false)).isInstanceOf(UnpooledByteBufAllocator.class);
	}

	@Test
	void nullTypeIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> BufferAllocators.allocator(null, true))
			.withMessageContaining("type");
	}

}
