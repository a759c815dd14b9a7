package dev.slipcase.redis.autoconfigure.sharded;

/**
 * A sharded template cannot be created as configured (an invalid {@code slipcase.redis.sharded.*}
 * value, a layout that differs from the one stored in Redis, an unreachable server); start-up
 * fails with an analysis naming the property and what to change ({@link ShardedFailureAnalyzer}).
 */
public class ShardedConfigurationException extends IllegalStateException {

	private final String property;

	private final String action;

	/**
	 * @param property the property (or group) to change, e.g.
	 * {@code slipcase.redis.sharded.namespaces.users.fill-factor}
	 * @param message what is wrong
	 * @param action what to change
	 * @param cause the underlying failure, may be {@code null}
	 */
	public ShardedConfigurationException(String property, String message, String action, Throwable cause) {
		super(message, cause);
		this.property = property;
		this.action = action;
	}

	/** The property (or group) to change. */
	public String getProperty() {
		return this.property;
	}

	/** What to change. */
	public String getAction() {
		return this.action;
	}

}
