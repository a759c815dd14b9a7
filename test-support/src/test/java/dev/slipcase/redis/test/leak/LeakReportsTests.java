package dev.slipcase.redis.test.leak;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LeakReports}: a buffer that is dropped without {@code release()} fails the
 * check, so a leak in any module's tests fails the build.
 */
class LeakReportsTests {

	@Test
	void buildRunsTestsWithTheRecordingParanoidDetector() {
		assertThat(LeakReports.isRecording()).isTrue();
	}

	@Test
	void droppedBufferIsReportedAndFailsTheCheck() {
		leakOneBuffer();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LeakReports.assertNoLeaks("this test"))
			.withMessageContaining("Netty buffer leak")
			.withMessageContaining("release() was not called")
			.withMessageContaining("leakOneBuffer");
	}

	@Test
	void releasedBufferIsNotReported() {
		ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(64);
		buffer.writeLong(42);
		buffer.release();
		LeakReports.assertNoLeaks("this test");
	}

	private static void leakOneBuffer() {
		ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(64);
		buffer.writeLong(7);
		buffer.readLong();
	}

}
