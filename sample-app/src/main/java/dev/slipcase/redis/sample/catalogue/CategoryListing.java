package dev.slipcase.redis.sample.catalogue;

import java.time.Instant;
import java.util.List;

/**
 * Every product of one category: a large value, cached in the {@code categories} cache as
 * Protostuff compressed with Zstd ({@code slipcase.redis.cache.caches.categories.*} in
 * {@code application.yml}).
 *
 * @param category the category
 * @param products its products, by id
 * @param generatedAt when the listing was built
 */
public record CategoryListing(String category, List<Product> products, Instant generatedAt) {

	public CategoryListing {
		products = List.copyOf(products);
	}

}
