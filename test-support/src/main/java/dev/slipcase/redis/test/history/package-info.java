/**
 * Histories of operations against a store and the checkers that judge them, in the manner of
 * Jepsen's checkers: {@link dev.slipcase.redis.test.history.History} records each operation's
 * invocation and completion, {@link dev.slipcase.redis.test.history.HistoryChecker} reads them
 * against a register per key and a counter's bounds.
 */
@NullMarked
package dev.slipcase.redis.test.history;

import org.jspecify.annotations.NullMarked;
