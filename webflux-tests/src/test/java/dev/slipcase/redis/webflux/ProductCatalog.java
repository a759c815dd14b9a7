package dev.slipcase.redis.webflux;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import org.springframework.cache.annotation.Cacheable;

/** A slow catalog behind a reactive {@code @Cacheable}: counts how often it is really asked. */
public class ProductCatalog {

	private final AtomicInteger lookups = new AtomicInteger();

	@Cacheable("products")
	public Mono<Product> product(long id) {
		return Mono.fromSupplier(() -> {
			this.lookups.incrementAndGet();
			return Product.sample(id);
		});
	}

	/** How many lookups reached the catalog (a method, as the bean is a proxy). */
	public int lookups() {
		return this.lookups.get();
	}

}
