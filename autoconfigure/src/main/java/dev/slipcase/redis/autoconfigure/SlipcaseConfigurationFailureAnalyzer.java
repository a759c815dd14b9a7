package dev.slipcase.redis.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link SlipcaseConfigurationException} at start-up: the property, what is wrong with
 * it and what to change.
 */
public class SlipcaseConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SlipcaseConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SlipcaseConfigurationException cause) {
		String description = "Invalid Slipcase configuration '" + cause.getProperty() + "':\n\n    "
				+ cause.getDescription();
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

}
