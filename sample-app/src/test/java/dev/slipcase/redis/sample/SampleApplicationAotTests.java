package dev.slipcase.redis.sample;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import dev.slipcase.redis.sample.catalogue.CategoryListing;
import dev.slipcase.redis.sample.catalogue.Product;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app in AOT mode: the build's {@code process-aot} step generated its context
 * initializer and the hints, and the app starts from them ({@code spring.aot.enabled=true}, what a
 * native image does) against its embedded Redis and answers over real HTTP. A GraalVM
 * {@code native-image} is not available on the build machines, so no native binary is built.
 */
class SampleApplicationAotTests {

	private static final String INITIALIZER = SampleApplication.class.getName() + "__ApplicationContextInitializer";

	private static final String METADATA = "/META-INF/native-image/dev.slipcase/slipcase-sample-app/reachability-metadata.json";

	@Test
	void theBuildGeneratedTheContextInitializerAndHintsForTheCachedValueTypes() throws Exception {
		assertThat(ClassUtils.isPresent(INITIALIZER, getClass().getClassLoader())).isTrue();
		JsonNode metadata;
		try (InputStream in = getClass().getResourceAsStream(METADATA)) {
			assertThat(in).as(METADATA).isNotNull();
			metadata = JsonMapper.builder().build().readTree(in);
		}
		// the types the caches store, read and written by reflection (records: constructor and accessors)
		for (Class<?> cached : List.of(Product.class, CategoryListing.class)) {
			JsonNode hint = null;
			for (JsonNode entry : metadata.get("reflection")) {
				JsonNode type = entry.path("type");
				if (type.isString() && cached.getName().equals(type.asString())) {
					hint = entry;
				}
			}
			assertThat(hint).as("reflection hint of " + cached.getName()).isNotNull();
			assertThat(hint.path("allDeclaredConstructors").asBoolean()).isTrue();
			assertThat(hint.path("methods").toString()).contains("\"name\":\"" + cached.getRecordComponents()[0].getName() + "\"");
		}
	}

	@Test
	void theAppRunsOnTheGeneratedCodeAndServesHttp() throws Exception {
		System.setProperty(AotDetector.AOT_ENABLED, "true");
		SpringApplication application = new SpringApplication(SampleApplication.class);
		// in AOT mode the initializer is found by the main class's name, not the test runner's
		application.setMainApplicationClass(SampleApplication.class);
		try (ConfigurableApplicationContext context = application.run("--server.port=0", "--spring.jmx.enabled=false")) {
			assertThat(AotDetector.useGeneratedArtifacts()).isTrue();
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			HttpClient http = HttpClient.newHttpClient();
			HttpResponse<String> product = http.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/products/1")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(product.statusCode()).isEqualTo(200);
			assertThat(product.body()).contains("\"id\":1");
			HttpResponse<String> savings = http.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/savings")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(savings.statusCode()).isEqualTo(200);
		}
		finally {
			System.clearProperty(AotDetector.AOT_ENABLED);
		}
	}

}
