package dev.slipcase.redis.sample.catalogue;

import java.time.Instant;
import java.util.List;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The catalogue, cached in Redis with Spring's {@code @Cacheable}: products in the
 * {@code products} cache (JSON), category listings in the {@code categories} cache (Protostuff
 * and Zstd). Which format a cache uses is configuration only, see {@code application.yml}.
 */
@Service
public class Catalogue {

	private final ProductRepository repository;

	Catalogue(ProductRepository repository) {
		this.repository = repository;
	}

	/**
	 * The product with this id.
	 * @throws ProductNotFoundException when there is none
	 */
	@Cacheable("products")
	public Product product(long id) {
		return this.repository.findById(id)
			.orElseThrow(() -> new ProductNotFoundException(
					"No product " + id + ": product ids run from 1 to " + this.repository.size()));
	}

	/**
	 * Every product of a category.
	 * @throws ProductNotFoundException when the category does not exist
	 */
	@Cacheable("categories")
	public CategoryListing category(String name) {
		List<Product> products = this.repository.findByCategory(name);
		if (products.isEmpty()) {
			throw new ProductNotFoundException(
					"No category '" + name + "': the categories are " + String.join(", ", ProductRepository.CATEGORIES));
		}
		return new CategoryListing(name, products, Instant.now());
	}

}
