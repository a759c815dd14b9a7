package dev.slipcase.redis.serializer.family;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/** A cached value with java.time fields, generic collections and a nullable note. */
public record Order(long id, Instant placed, LocalDate delivery, List<Line> lines, Map<String, Instant> events,
		@Nullable String note) {

	/** An order line. */
	public record Line(String sku, int quantity, BigDecimal price) {
	}

	public static Order sample(long id, @Nullable String note) {
		return new Order(id, Instant.parse("2026-11-21T10:15:30.123456Z"), LocalDate.of(2026, 12, 24),
				List.of(new Line("sku-" + id, 2, new BigDecimal("19.99")), new Line("gift", 1, BigDecimal.ZERO)),
				Map.of("paid", Instant.parse("2026-11-21T10:16:00Z")), note);
	}

}
