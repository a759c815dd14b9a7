package dev.slipcase.redis.webflux;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** What the shop caches: a record with {@code java.time}, a generic list and a nullable field. */
public record Product(long id, String name, BigDecimal price, Instant listed, List<String> tags, String note) {

	static Product sample(long id) {
		return new Product(id, "product " + id, new BigDecimal("19.90"), Instant.parse("2026-11-25T10:15:30Z"),
				List.of("book", "paper"), null);
	}

}
