package dev.slipcase.redis.adoption;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/** An order, a record as today's DTOs are; {@code Serializable} because Boot's redisTemplate stores it with JDK serialization. */
public record Order(long id, String customer, BigDecimal total, Instant placed, List<Line> lines, @Nullable String note)
		implements Serializable {

	/** An order line. */
	public record Line(String sku, int quantity, BigDecimal price) implements Serializable {
	}

	static Order sample(long id) {
		return new Order(id, "ada", new BigDecimal("39.98"), Instant.parse("2026-11-21T10:15:30.123456Z"),
				List.of(new Line("sku-" + id, 2, new BigDecimal("19.99"))), null);
	}

}
