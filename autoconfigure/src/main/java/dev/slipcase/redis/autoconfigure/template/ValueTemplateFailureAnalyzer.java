package dev.slipcase.redis.autoconfigure.template;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link ValueTemplateConfigurationException} into a start-up failure analysis that names
 * the property and says what to change.
 */
class ValueTemplateFailureAnalyzer extends AbstractFailureAnalyzer<ValueTemplateConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ValueTemplateConfigurationException cause) {
		return new FailureAnalysis("Invalid value template configuration at '" + cause.getProperty() + "': "
				+ cause.getMessage(), cause.getAction(), cause);
	}

}
