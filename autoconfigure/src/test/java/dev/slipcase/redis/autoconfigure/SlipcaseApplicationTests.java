package dev.slipcase.redis.autoconfigure;

import java.time.Instant;
import java.util.List;

import dev.slipcase.redis.sharded.ShardedTemplate;
import dev.slipcase.redis.sharded.TtlFallback;
import dev.slipcase.redis.template.ValueTemplate;
import dev.slipcase.redis.test.RedisServer;
import dev.slipcase.redis.test.RedisServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A Boot application with nothing but auto-configuration and {@code sharded-app.yml}, against a real
 * Redis: namespaces and the allowlisted template come from the YAML alone, and a bad value is
 * reported by Boot as a failure analysis.
 */
class SlipcaseApplicationTests {

	private final RedisServer redis = RedisServers.shared();

	@BeforeEach
	void flush() {
		this.redis.flushAll();
		RecordingFailureAnalysisReporter.ANALYSES.clear();
	}

	@Test
	void namespacesAndTheObjectTemplateComeFromApplicationYml() {
		try (ConfigurableApplicationContext context = application().run(redisArguments())) {
			@SuppressWarnings("unchecked")
			ShardedTemplate<Long> views = context.getBean("pageViewsShardedTemplate", ShardedTemplate.class);
			views.incrBy("views:4321", 3);
			assertThat(views.incrBy("views:4321", 1)).isEqualTo(4);
			assertThat(views.get("views:4321")).isEqualTo(4L);
			assertThat(this.redis.command("HGET", "~sc:{pv:n:43}", "21")).isEqualTo("4");

			@SuppressWarnings("unchecked")
			ShardedTemplate<Order> carts = context.getBean("cartsShardedTemplate", ShardedTemplate.class);
			assertThat(carts.namespace().ttlFallback()).isEqualTo(TtlFallback.PLAIN_KEY);
			assertThat(carts.limits().maxValueBytes()).isEqualTo(2048);
			Order cart = new Order("c-9", Instant.parse("2026-11-21T12:00:00Z"), List.of("milk", "eggs"), null);
			carts.set("c-9", cart);
			assertThat(carts.get("c-9")).isEqualTo(cart);

			@SuppressWarnings("unchecked")
			ValueTemplate<Object> any = context.getBean("slipcaseValueTemplate", ValueTemplate.class);
			any.set("order:1", cart);
			assertThat(any.get("order:1")).isEqualTo(cart);
		}
	}

	@Test
	void anInvalidValueIsReportedByBootAsAFailureAnalysis() {
		assertThatException().isThrownBy(() -> application().run(redisArguments(
				"--slipcase.redis.sharded.namespaces.page-views.fill-factor=1.2")));
		assertThat(RecordingFailureAnalysisReporter.ANALYSES).singleElement().satisfies((analysis) -> {
			assertThat(analysis.getDescription())
				.contains("slipcase.redis.sharded.namespaces.page-views.fill-factor")
				.contains("120%");
			assertThat(analysis.getAction()).contains("at most 1 (100%)");
		});
	}

	@Test
	void aLayoutMismatchIsReportedByBootAsAFailureAnalysis() {
		application().run(redisArguments()).close();
		assertThatException().isThrownBy(() -> application().run(redisArguments(
				"--slipcase.redis.sharded.namespaces.page-views.bucket-size=50")));
		FailureAnalysis analysis = RecordingFailureAnalysisReporter.ANALYSES.get(0);
		assertThat(analysis.getDescription()).contains("slipcase.redis.sharded.namespaces.page-views")
			.contains("bucketSize 100");
		assertThat(analysis.getAction()).contains("alias");
	}

	private static SpringApplicationBuilder application() {
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
			.properties("spring.config.name=sharded-app");
	}

	private String[] redisArguments(String... more) {
		String[] arguments = new String[more.length + 2];
		arguments[0] = "--spring.data.redis.host=" + this.redis.endpoint().host();
		arguments[1] = "--spring.data.redis.port=" + this.redis.endpoint().port();
		System.arraycopy(more, 0, arguments, 2, more.length);
		return arguments;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
