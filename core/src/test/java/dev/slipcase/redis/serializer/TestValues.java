package dev.slipcase.redis.serializer;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/** Records like an application's DTOs, with every feature the formats must round-trip. */
public final class TestValues {

	private TestValues() {
	}

	public enum Status {

		NEW, PAID, SHIPPED

	}

	public record Address(String street, @Nullable String line2, String city) {
	}

	public record Line(String sku, int quantity, BigDecimal price, List<String> tags) {
	}

	public record Order(long id, String customer, Instant createdAt, Status status, Address shipTo, List<Line> lines,
			Map<String, String> attributes, Optional<String> note, @Nullable String comment, @Nullable Integer priority,
			LocalDate due, Duration window, UUID reference, Set<String> labels, double weight, boolean gift,
			byte[] signature) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Order order && id == order.id && customer.equals(order.customer)
					&& createdAt.equals(order.createdAt) && status == order.status && shipTo.equals(order.shipTo)
					&& lines.equals(order.lines) && attributes.equals(order.attributes) && note.equals(order.note)
					&& java.util.Objects.equals(comment, order.comment)
					&& java.util.Objects.equals(priority, order.priority) && due.equals(order.due)
					&& window.equals(order.window) && reference.equals(order.reference) && labels.equals(order.labels)
					&& weight == order.weight && gift == order.gift && Arrays.equals(signature, order.signature);
		}

		@Override
		public int hashCode() {
			return Long.hashCode(id);
		}

	}

	/** A generic record, read through a TypeReference. */
	public record Page<T>(List<T> items, int number, @Nullable T first) {
	}

	/** A recursive record. */
	public record Node(String name, List<Node> children) {
	}

	/** A record whose constructor validates. */
	public record Percentage(int value) {

		public Percentage {
			if (value < 0 || value > 100) {
				throw new IllegalArgumentException("percentage out of range: " + value);
			}
		}

	}

	/** A small record, as Spring Data's typed JSON wrote it. */
	public record Session(String user, Instant expiresAt, int flags) {
	}

	public static Order order(long id) {
		Map<String, String> attributes = new LinkedHashMap<>();
		attributes.put("channel", "web");
		attributes.put("locale", "en-GB");
		List<Line> lines = new ArrayList<>();
		lines.add(new Line("SKU-1", 2, new BigDecimal("19.99"), List.of("red", "sale")));
		lines.add(new Line("SKU-2", 1, new BigDecimal("5.00"), List.of()));
		return new Order(id, "customer-" + id, Instant.parse("2026-05-01T10:15:30.123456789Z"), Status.PAID,
				new Address("1 High Street", null, "London"), lines, attributes, Optional.of("leave at the door"), null,
				7, LocalDate.of(2026, 5, 3), Duration.ofMinutes(90), UUID.fromString("2b1c7c9e-3f8a-4c8e-9a51-0f6f7c0f1d2e"),
				new TreeSet<>(Set.of("b", "a")), 1.25, true, new byte[] { 1, 2, 3 });
	}

	public static Order orderWithNulls(long id) {
		return new Order(id, "c", Instant.EPOCH, Status.NEW, new Address("s", null, "c"), new ArrayList<>(Arrays.asList(
				new Line("x", 0, BigDecimal.ZERO, new ArrayList<>(Arrays.asList("a", null, "b"))), null)),
				new LinkedHashMap<>(Map.of("k", "v")), Optional.empty(), null, null, LocalDate.EPOCH, Duration.ZERO,
				new UUID(0, 0), Set.of(), 0, false, new byte[0]);
	}

	public static Session session(int i) {
		return new Session("user-" + i, Instant.parse("2026-05-01T10:00:00Z").plusSeconds(i), i % 8);
	}

}
