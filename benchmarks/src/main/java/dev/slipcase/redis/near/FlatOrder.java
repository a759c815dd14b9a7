package dev.slipcase.redis.near;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.StringJoiner;

import dev.slipcase.redis.benchmark.Payloads;

/**
 * {@link Payloads.Order} flattened into a record of strings, numbers, an {@code Instant} and an
 * enum, about as long as JSON (900 bytes), but nothing a decoder makes of it can be changed, so a
 * near tier can hand the value it holds to every reader as it is. The order's line items are one
 * string, and its note is repeated to make up the length of the lists and the map it no longer has.
 */
public record FlatOrder(long id, String customer, Instant createdAt, Payloads.Status status, String shipToName,
		String shipToLine1, String shipToCity, String shipToPostcode, String shipToCountry, int itemCount,
		String items, BigDecimal total, String channel, String campaign, String locale, String note)
		implements Serializable {

	/** The order of {@code seed} ({@link Payloads#order(long)}), flattened. */
	public static FlatOrder of(long seed) {
		Payloads.Order order = Payloads.order(seed);
		StringJoiner items = new StringJoiner("; ");
		BigDecimal total = BigDecimal.ZERO;
		for (Payloads.LineItem item : order.items()) {
			BigDecimal line = item.unitPrice().multiply(BigDecimal.valueOf(item.quantity()));
			items.add(item.sku() + " " + item.name() + " x" + item.quantity() + " @ " + item.unitPrice() + " = " + line
					+ " [" + String.join(",", item.tags()) + "]");
			total = total.add(line);
		}
		Payloads.Address shipTo = order.shipTo();
		return new FlatOrder(order.id(), order.customer(), order.createdAt(), order.status(), shipTo.name(),
				shipTo.line1(), shipTo.city(), shipTo.postcode(), shipTo.country(), order.items().size(),
				items.toString(), total, order.attributes().get("channel"), order.attributes().get("campaign"),
				order.attributes().get("locale"), String.join(" ", order.note(), order.note(), order.note()));
	}

}
