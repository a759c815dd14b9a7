package dev.slipcase.redis.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Settings of a near tier, whichever reads it serves: Spring's caches
 * ({@code slipcase.redis.cache.near}) or the {@code slipcaseValueTemplate} bean
 * ({@code slipcase.redis.template.near}), each adding what names the values it holds.
 */
public class NearTierProperties {

	/**
	 * Whether reads go through a near tier: decoded values held in the JVM, invalidated by Redis'
	 * client tracking.
	 */
	private boolean enabled;

	/**
	 * Most entries the near tier holds (each cache's tier, for caches); least recently used
	 * beyond.
	 */
	private long maximumSize = 10_000;

	/**
	 * How long a near entry is held at most after it was stored; unlimited when not set (Redis'
	 * invalidations keep it correct). A cache's tier holds no entry longer than the cache's time
	 * to live.
	 */
	private @Nullable Duration maximumAge;

	/**
	 * How often the tracking connection is checked, and how late its answer may be before the
	 * near tier is cleared and bypassed until it answers again.
	 */
	private Duration heartbeat = Duration.ofSeconds(1);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public long getMaximumSize() {
		return this.maximumSize;
	}

	public void setMaximumSize(long maximumSize) {
		this.maximumSize = maximumSize;
	}

	public @Nullable Duration getMaximumAge() {
		return this.maximumAge;
	}

	public void setMaximumAge(@Nullable Duration maximumAge) {
		this.maximumAge = maximumAge;
	}

	public Duration getHeartbeat() {
		return this.heartbeat;
	}

	public void setHeartbeat(Duration heartbeat) {
		this.heartbeat = heartbeat;
	}

}
