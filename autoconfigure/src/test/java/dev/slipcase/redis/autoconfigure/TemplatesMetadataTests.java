package dev.slipcase.redis.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import dev.slipcase.redis.autoconfigure.sharded.SlipcaseShardedAutoConfiguration;
import dev.slipcase.redis.autoconfigure.template.SlipcaseValueTemplateAutoConfiguration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the template and sharded properties reach the IDE (generated configuration metadata,
 * with a description for every property and the hints) and that the auto-configurations and
 * failure analyzers are registered.
 */
class TemplatesMetadataTests {

	private static final List<String> GROUPS = List.of("slipcase.redis.template.", "slipcase.redis.sharded.");

	@Test
	void everyPropertyIsDescribedAndBooleansSayWhether() throws IOException {
		List<JsonNode> properties = new ArrayList<>();
		metadata().get("properties").forEach((property) -> {
			if (GROUPS.stream().anyMatch(property.get("name").asString()::startsWith)) {
				properties.add(property);
			}
		});
		assertThat(properties).extracting((property) -> property.get("name").asString())
			.contains("slipcase.redis.template.enabled", "slipcase.redis.template.database",
					"slipcase.redis.template.caller-thread-decoding-from", "slipcase.redis.template.types",
					"slipcase.redis.template.unacknowledged-writes",
					"slipcase.redis.sharded.enabled", "slipcase.redis.sharded.lazy-initialization",
					"slipcase.redis.sharded.namespaces");
		for (JsonNode property : properties) {
			String name = property.get("name").asString();
			assertThat(property.has("description")).as(name).isTrue();
			String description = property.get("description").asString();
			assertThat(description).as(name).isNotBlank().doesNotStartWith("The ").doesNotStartWith("A ");
			if ("java.lang.Boolean".equals(property.get("type").asString())) {
				assertThat(description).as(name).startsWith("Whether");
			}
		}
	}

	@Test
	void allowlistedTypesHintAtClasses() throws IOException {
		List<String> hints = new ArrayList<>();
		metadata().get("hints").forEach((hint) -> hints.add(hint.get("name").asString()));
		assertThat(hints).contains("slipcase.redis.template.types.values");
	}

	@Test
	void autoConfigurationsAreRegistered() throws IOException {
		String imports = new ClassPathResource(
				"META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")
			.getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
		assertThat(imports.lines()).contains(SlipcaseValueTemplateAutoConfiguration.class.getName(),
				SlipcaseShardedAutoConfiguration.class.getName());
	}

	@Test
	void failureAnalyzersAreRegistered() {
		// the arguments Boot's FailureAnalyzers gives analyzers that take them
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, new StandardEnvironment());
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, arguments, FailureHandler.handleMessage((message, failure) -> {
				// Boot's analyzers for libraries not on this class path (as FailureAnalyzers skips them)
			}));
		assertThat(analyzers).extracting((analyzer) -> analyzer.getClass().getName())
			.contains("dev.slipcase.redis.autoconfigure.SlipcaseConfigurationFailureAnalyzer");
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
	}

}
