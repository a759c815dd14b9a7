/**
 * A real Redis for every test that needs one: {@link dev.slipcase.redis.test.RedisServers} finds
 * or starts a standalone server or a three-master cluster, and
 * {@link dev.slipcase.redis.test.RedisExtension} hands them to JUnit 5 tests.
 */
@NullMarked
package dev.slipcase.redis.test;

import org.jspecify.annotations.NullMarked;
