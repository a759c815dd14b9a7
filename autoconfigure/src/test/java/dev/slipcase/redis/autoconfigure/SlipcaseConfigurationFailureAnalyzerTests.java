package dev.slipcase.redis.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

class SlipcaseConfigurationFailureAnalyzerTests {

	@Test
	void describesThePropertyAndWhatToChange() {
		SlipcaseConfigurationException cause = new SlipcaseConfigurationException("slipcase.redis.compression.level",
				"Compression level 12 is out of range", "Set slipcase.redis.compression.level between 1 and 9.", null);
		FailureAnalysis analysis = new SlipcaseConfigurationFailureAnalyzer()
			.analyze(new BeanCreationException("slipcaseGzipCompressor", "failed", cause));
		assertThat(analysis.getDescription()).contains("slipcase.redis.compression.level")
			.contains("Compression level 12 is out of range");
		assertThat(analysis.getAction()).isEqualTo("Set slipcase.redis.compression.level between 1 and 9.");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void ignoresOtherFailures() {
		assertThat(new SlipcaseConfigurationFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
	}

	@Test
	void isRegisteredUnderBootsFailureAnalyzerKey() {
		List<String> names = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.logging(
					org.apache.commons.logging.LogFactory.getLog(getClass())))
			.stream()
			.map((analyzer) -> analyzer.getClass().getName())
			.toList();
		assertThat(names).contains(SlipcaseConfigurationFailureAnalyzer.class.getName());
	}

}
