/**
 * Faults on the wire between a client and a real server: {@link dev.slipcase.redis.test.fault.FaultProxy}.
 */
@NullMarked
package dev.slipcase.redis.test.fault;

import org.jspecify.annotations.NullMarked;
