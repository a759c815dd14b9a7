package dev.slipcase.redis.autoconfigure.template;

/**
 * A {@code slipcase.redis.template.*} setting cannot be used; start-up fails with an analysis
 * naming the property and what to change ({@link ValueTemplateFailureAnalyzer}).
 */
public class ValueTemplateConfigurationException extends IllegalStateException {

	private final String property;

	private final String action;

	/**
	 * @param property the offending property, e.g. {@code slipcase.redis.template.types}
	 * @param message what is wrong
	 * @param action what to change
	 * @param cause the underlying failure, may be {@code null}
	 */
	public ValueTemplateConfigurationException(String property, String message, String action, Throwable cause) {
		super(message, cause);
		this.property = property;
		this.action = action;
	}

	/** The offending property. */
	public String getProperty() {
		return this.property;
	}

	/** What to change. */
	public String getAction() {
		return this.action;
	}

}
