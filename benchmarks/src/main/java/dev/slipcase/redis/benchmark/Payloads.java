package dev.slipcase.redis.benchmark;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.jspecify.annotations.Nullable;

/**
 * The payloads Slipcase's benchmarks compare on, built deterministically from a fixed seed so
 * that every run and every serializer sees the same values. Text is drawn from a vocabulary of
 * real words, so compression ratios resemble those of real data rather than of repeated strings.
 * All types are records (today's DTOs), with {@code java.time} fields, nested collections and
 * nulls, and are {@link Serializable} so that the JDK serializer baseline can run.
 */
public final class Payloads {

	private static final String[] WORDS = ("redis value buffer netty spring boot cache order customer "
			+ "product shipping invoice payment pending delivered warehouse station category search index "
			+ "latency memory compression dictionary cluster shard bucket listpack serializer template lease "
			+ "stream window account profile session token region market price discount coupon review rating "
			+ "the of and to in is for on with as by at from that this be are was it or an not")
		.split(" ");

	private Payloads() {
	}

	/** A session token: about 100 bytes as JSON. */
	public record SessionToken(String userId, String token, Instant expiresAt, int flags) implements Serializable {
	}

	/** An order with nested line items, a map and an address: about 1 KB as JSON. */
	public record Order(long id, String customer, Instant createdAt, Status status, Address shipTo,
			List<LineItem> items, Map<String, String> attributes, String note) implements Serializable {
	}

	/** An order's status. */
	public enum Status {

		PENDING, PAID, SHIPPED, DELIVERED

	}

	/** A postal address; {@code line2} is often {@code null}. */
	public record Address(String name, String line1, @Nullable String line2, String city, String postcode,
			String country) implements Serializable {
	}

	/** One line of an order. */
	public record LineItem(String sku, String name, int quantity, BigDecimal unitPrice, List<String> tags)
			implements Serializable {
	}

	/** A long document of sections of paragraphs: about 70 KB as JSON. */
	public record Document(String id, String title, Instant updatedAt, List<Section> sections)
			implements Serializable {
	}

	/** A section of a document. */
	public record Section(String heading, List<String> paragraphs) implements Serializable {
	}

	/** A session token of about 100 bytes of JSON. */
	public static SessionToken sessionToken(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		return new SessionToken("user:" + (100000 + random.nextInt(900000)), token(random, 32),
				Instant.ofEpochSecond(1_780_000_000L + random.nextInt(86_400)), random.nextInt(16));
	}

	/** An order of about 1 KB of JSON. */
	public static Order order(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<LineItem> items = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			items.add(new LineItem("SKU-" + (10000 + random.nextInt(90000)), words(random, 3), 1 + random.nextInt(5),
					BigDecimal.valueOf(100 + random.nextInt(99_900), 2), List.of(word(random), word(random))));
		}
		Map<String, String> attributes = new LinkedHashMap<>();
		attributes.put("channel", "web");
		attributes.put("campaign", word(random) + "-" + word(random));
		attributes.put("locale", "en-GB");
		Address address = new Address(words(random, 2), (1 + random.nextInt(200)) + " " + words(random, 2), null,
				word(random), "AB" + random.nextInt(10) + " " + random.nextInt(10) + "CD", "GB");
		return new Order(seed, "customer-" + random.nextInt(1_000_000), Instant.ofEpochSecond(1_780_000_000L + seed),
				Status.values()[random.nextInt(Status.values().length)], address, items, attributes, words(random, 12));
	}

	/** A document of about 70 KB of JSON. */
	public static Document document(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Section> sections = new ArrayList<>();
		for (int s = 0; s < 20; s++) {
			List<String> paragraphs = new ArrayList<>();
			for (int p = 0; p < 6; p++) {
				paragraphs.add(words(random, 90));
			}
			sections.add(new Section(words(random, 4), paragraphs));
		}
		return new Document("doc-" + seed, words(random, 6), Instant.ofEpochSecond(1_780_000_000L), sections);
	}

	/** {@code count} session tokens. */
	public static List<SessionToken> sessionTokens(int count) {
		List<SessionToken> tokens = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			tokens.add(sessionToken(i));
		}
		return tokens;
	}

	private static String word(SplittableRandom random) {
		return WORDS[random.nextInt(WORDS.length)];
	}

	private static String words(SplittableRandom random, int count) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < count; i++) {
			if (i > 0) {
				text.append(' ');
			}
			text.append(word(random));
		}
		return text.toString();
	}

	private static String token(SplittableRandom random, int length) {
		String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
		StringBuilder token = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			token.append(alphabet.charAt(random.nextInt(alphabet.length())));
		}
		return token.toString();
	}

}
