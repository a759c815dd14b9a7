/**
 * Slipcase's one layer over Lettuce, the only place that sends commands, waits for replies and
 * handles connections: a {@link dev.slipcase.redis.lettuce.ConnectionHolder} that follows a
 * connection factory across stop and start, a {@link dev.slipcase.redis.lettuce.CommandChannel}
 * that sends one command or a {@link dev.slipcase.redis.lettuce.Pipeline} of many and waits for
 * replies with one exception contract (Spring's {@code DataAccessException} family, the command
 * cancelled on a timeout), Lua scripts with the
 * {@code EVALSHA}-then-{@code EVAL} fallback, and {@link dev.slipcase.redis.lettuce.KeyGroups} to
 * split keys by slot and put replies back in order.
 * <p>
 * {@link dev.slipcase.redis.lettuce.WriteCoalescing} puts the commands that concurrent callers
 * issue on one connection into one socket write, on every connection Slipcase opens, and puts the
 * NIO connections of resources it configures on event loops that wake their selector only when
 * they are about to block in it ({@link dev.slipcase.redis.lettuce.WakeOnDemandEventLoopGroupProvider}).
 * <p>
 * The templates describe their commands (type, arguments, output); this package sends them. It
 * imports nothing of the templates that use it. Public for Slipcase's own packages only: not an
 * API, and it may change in any release; the exceptions are {@code WriteCoalescing}, the documented
 * entry point for clients built by hand, and {@code WakeOnDemandEventLoopGroupProvider}, which such
 * a client sets after it for another number of I/O threads.
 */
@NullMarked
package dev.slipcase.redis.lettuce;

import org.jspecify.annotations.NullMarked;
