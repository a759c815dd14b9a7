package dev.slipcase.redis.sample.catalogue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Repository;

/**
 * The catalogue's source of truth, standing in for a database: {@value #PER_CATEGORY} generated
 * products in each of {@link #CATEGORIES}, ids from 1. Counts its reads, so that the tests can
 * see the cache in front of it. Thread-safe.
 */
@Repository
public class ProductRepository {

	/** The categories, in id order. */
	public static final List<String> CATEGORIES = List.of("books", "music", "games");

	static final int PER_CATEGORY = 150;

	private static final Instant ADDED = Instant.parse("2026-01-05T09:30:00Z");

	private final Map<Long, Product> products = new LinkedHashMap<>();

	private final AtomicLong reads = new AtomicLong();

	public ProductRepository() {
		long id = 1;
		for (String category : CATEGORIES) {
			for (int i = 0; i < PER_CATEGORY; i++, id++) {
				this.products.put(id, product(id, category, i));
			}
		}
	}

	private static Product product(long id, String category, int i) {
		String name = switch (category) {
			case "books" -> "Book";
			case "music" -> "Album";
			default -> "Game";
		} + " #" + id;
		BigDecimal price = BigDecimal.valueOf(499 + (id * 37) % 5000, 2);
		return new Product(id, name, category, price, ADDED.plusSeconds(id * 3600),
				LocalDate.of(2026, 2, 1).plusDays(i % 28),
				"A fine item from our " + category + " range, number " + i + " of " + PER_CATEGORY
						+ ", shipped in two working days.");
	}

	/** The product with this id, counting the read. */
	public Optional<Product> findById(long id) {
		this.reads.incrementAndGet();
		return Optional.ofNullable(this.products.get(id));
	}

	/** The products of a category, in id order, counting the read; empty for an unknown category. */
	public List<Product> findByCategory(String category) {
		this.reads.incrementAndGet();
		List<Product> result = new ArrayList<>();
		for (Product product : this.products.values()) {
			if (product.category().equals(category)) {
				result.add(product);
			}
		}
		return result;
	}

	/** Every product, in id order, counting the read. */
	public List<Product> findAll() {
		this.reads.incrementAndGet();
		return List.copyOf(this.products.values());
	}

	/** How many reads this repository has served. */
	public long reads() {
		return this.reads.get();
	}

	/** The number of products. */
	public int size() {
		return this.products.size();
	}

}
