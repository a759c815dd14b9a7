package dev.slipcase.redis.autoconfigure.sharded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link ShardedConfigurationException} into a start-up failure analysis that names the
 * property and says what to change.
 */
class ShardedFailureAnalyzer extends AbstractFailureAnalyzer<ShardedConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ShardedConfigurationException cause) {
		return new FailureAnalysis("Sharded template configuration '" + cause.getProperty() + "' cannot be used: "
				+ cause.getMessage(), cause.getAction(), cause);
	}

}
