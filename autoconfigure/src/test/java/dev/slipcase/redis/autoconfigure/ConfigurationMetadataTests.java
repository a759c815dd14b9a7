package dev.slipcase.redis.autoconfigure;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The metadata spring-boot-configuration-processor generated, as an IDE reads it. */
class ConfigurationMetadataTests {

	private final JsonNode metadata = read();

	@Test
	void everyPropertyHasADescription() {
		List<String> undocumented = new ArrayList<>();
		for (JsonNode property : this.metadata.get("properties")) {
			JsonNode description = property.get("description");
			if (description == null || description.asString().isBlank()) {
				undocumented.add(property.get("name").asString());
			}
		}
		assertThat(this.metadata.get("properties").size()).isGreaterThan(10);
		assertThat(undocumented).isEmpty();
	}

	@Test
	void booleanDescriptionsStartWithWhether() {
		for (JsonNode property : this.metadata.get("properties")) {
			if ("java.lang.Boolean".equals(property.get("type").asString())) {
				assertThat(property.get("description").asString()).as(property.get("name").asString())
					.startsWith("Whether");
			}
		}
	}

	@Test
	void everyPropertyIsUnderSlipcaseRedisOrTheSlipcaseEndpoint() {
		for (JsonNode property : this.metadata.get("properties")) {
			// the processor adds management.endpoint.slipcase.* for the @Endpoint, as it does for Boot's own
			assertThat(property.get("name").asString()).satisfiesAnyOf(
					(name) -> assertThat(name).startsWith("slipcase.redis."),
					(name) -> assertThat(name).startsWith("management.endpoint.slipcase."));
		}
	}

	@Test
	void compressionAlgorithmHasAHintForEveryValue() {
		List<String> values = new ArrayList<>();
		for (JsonNode hint : this.metadata.get("hints")) {
			if ("slipcase.redis.compression.algorithm".equals(hint.get("name").asString())) {
				hint.get("values").forEach((value) -> values.add(value.get("value").asString()));
			}
		}
		assertThat(values).containsExactly("none", "lz4", "zstd", "gzip");
	}

	@Test
	void defaultsAreRecorded() {
		for (JsonNode property : this.metadata.get("properties")) {
			if ("slipcase.redis.compression.max-decompressed-size".equals(property.get("name").asString())) {
				assertThat(property.get("defaultValue").asString()).isEqualTo("32MB");
				return;
			}
		}
		throw new AssertionError("slipcase.redis.compression.max-decompressed-size is not in the metadata");
	}

	private static JsonNode read() {
		try (InputStream in = ConfigurationMetadataTests.class.getClassLoader()
			.getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("generated metadata").isNotNull();
			return JsonMapper.builder().build().readTree(in);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
