package dev.slipcase.redis.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * A {@code slipcase.redis.*} setting that cannot be applied, naming the property, what is wrong
 * and what to change; {@link SlipcaseConfigurationFailureAnalyzer} turns it into Boot's start-up
 * failure report.
 */
public class SlipcaseConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final String action;

	/**
	 * A failure of {@code property}.
	 * @param property the property's name, such as {@code slipcase.redis.compression.level}
	 * @param description what is wrong
	 * @param action what to change
	 * @param cause the underlying failure, may be {@code null}
	 */
	public SlipcaseConfigurationException(String property, String description, String action,
			@Nullable Throwable cause) {
		super(property + ": " + description, cause);
		this.property = property;
		this.action = action;
	}

	/** The property to change. */
	public String getProperty() {
		return this.property;
	}

	/** What is wrong, without the property's name. */
	public String getDescription() {
		return getMessage().substring(this.property.length() + 2);
	}

	/** What to change. */
	public String getAction() {
		return this.action;
	}

}
