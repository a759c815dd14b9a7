package dev.slipcase.redis.webflux;

import java.time.Duration;

import dev.slipcase.redis.near.NearCache;
import dev.slipcase.redis.near.NearCacheManager;
import dev.slipcase.redis.test.Wait;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.CacheManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop's reactive {@code @Cacheable} ({@code Mono<Product>}) with the near tier on, over real
 * HTTP: once cached and held, a hit is served from the JVM, no Redis {@code GET} sent, as a
 * blocking method's is; a change in Redis reaches the next request.
 */
@SpringBootTest(classes = ShopWebFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "slipcase.redis.cache.near.enabled=true", "slipcase.redis.cache.near.cache-names=products" })
class NearCacheTests extends ShopOverHttp {

	@Autowired
	private ProductCatalog catalog;

	@Autowired
	private CacheManager caches;

	@Test
	void aHitOnAMonoMethodIsServedFromTheJvm() throws Exception {
		assertThat(this.caches).isInstanceOf(NearCacheManager.class);
		NearCache near = ((NearCacheManager) this.caches).nearTiers().get("products");
		Wait.until(Duration.ofSeconds(10), near::isTrusted);
		int lookups = this.catalog.lookups();
		this.http.get().uri("/products/11").exchange().expectStatus().isOk().expectBody(Product.class)
			.isEqualTo(Product.sample(11));
		assertThat(this.catalog.lookups()).isEqualTo(lookups + 1);
		Wait.until(Duration.ofSeconds(10), () -> near.peek("products::11") != null);
		redis.command("CONFIG", "RESETSTAT");
		long hits = near.hits();
		for (int i = 0; i < 20; i++) {
			this.http.get().uri("/products/11").exchange().expectStatus().isOk().expectBody(Product.class)
				.isEqualTo(Product.sample(11));
		}
		assertThat(this.catalog.lookups()).isEqualTo(lookups + 1);
		assertThat(near.hits() - hits).isEqualTo(20);
		assertThat(redis.calls("get")).as("GETs sent to Redis for hits").isZero();
		// another instance changes the entry: Redis' invalidation reaches this one's next request
		redis.command("DEL", "products::11");
		Wait.until(Duration.ofSeconds(10), () -> near.peek("products::11") == null);
		this.http.get().uri("/products/11").exchange().expectStatus().isOk().expectBody(Product.class)
			.isEqualTo(Product.sample(11));
		assertThat(this.catalog.lookups()).isEqualTo(lookups + 2);
	}

}
