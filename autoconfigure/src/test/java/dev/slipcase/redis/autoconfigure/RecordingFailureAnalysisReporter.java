package dev.slipcase.redis.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalysisReporter;

/**
 * Records the failure analyses Boot reports when an application fails to start (registered in the
 * tests' {@code META-INF/spring.factories}), so a test can read what the user would see.
 */
public class RecordingFailureAnalysisReporter implements FailureAnalysisReporter {

	static final List<FailureAnalysis> ANALYSES = new CopyOnWriteArrayList<>();

	@Override
	public void report(FailureAnalysis analysis) {
		ANALYSES.add(analysis);
	}

}
