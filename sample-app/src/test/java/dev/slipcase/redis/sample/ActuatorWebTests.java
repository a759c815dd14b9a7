package dev.slipcase.redis.sample;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code slipcase} Actuator endpoint is exposed and describes the app's configuration.
 */
class ActuatorWebTests extends SampleWebTests {

	@Test
	void slipcaseEndpointShowsTheConfigurationAndTheShardedNamespaces() {
		this.client.get()
			.uri("/actuator/slipcase")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.properties['slipcase.redis.cache.caches.categories.format']")
			.isEqualTo("protostuff")
			.jsonPath("$.sharded['product-views'].alias")
			.isEqualTo("pv")
			.jsonPath("$.sharded['feature-flags'].layout.strategy")
			.isEqualTo("HASHED")
			.jsonPath("$.sharded['memory-demo'].keyPrefix")
			.isEqualTo("demo:");
	}

	@Test
	void slipcaseEndpointReportsOneNamespace() {
		this.client.get()
			.uri("/actuator/slipcase/product-views")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.namespace")
			.isEqualTo("product-views")
			.jsonPath("$.flippedBuckets")
			.isEqualTo(0)
			.jsonPath("$.fields")
			.value(Integer.class, (fields) -> assertThat(fields).isGreaterThanOrEqualTo(450));
	}

}
