/**
 * Turns Netty's leak reports into test failures: {@link dev.slipcase.redis.test.leak.RecordingLeakDetector}
 * records every report and {@link dev.slipcase.redis.test.leak.NettyLeakCheckExtension} fails the
 * test class after which one was found.
 */
@NullMarked
package dev.slipcase.redis.test.leak;

import org.jspecify.annotations.NullMarked;
