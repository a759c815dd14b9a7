package dev.slipcase.redis;

import dev.slipcase.redis.test.leak.NettyLeakCheckExtension;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the build runs every test class under test-support's leak check: it is registered by
 * JUnit's extension auto-detection, which a setting in the build's surefire configuration turns on.
 */
class LeakCheckTests {

	@Test
	void theLeakCheckWatchesEveryTestClass() {
		assertThat(NettyLeakCheckExtension.isChecking(LeakCheckTests.class)).as(
				"NettyLeakCheckExtension runs around this class (junit.jupiter.extensions.autodetection.enabled)")
			.isTrue();
	}

}
