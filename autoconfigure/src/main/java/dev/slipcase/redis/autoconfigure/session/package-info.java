/**
 * Spring Session integration: sessions stored in Redis through Slipcase's serializers, readable
 * JSON by default, with Spring Security's Jackson modules when Spring Security is present.
 */
@NullMarked
package dev.slipcase.redis.autoconfigure.session;

import org.jspecify.annotations.NullMarked;
