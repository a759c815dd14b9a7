package dev.slipcase.redis.serializer.compression;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test data: text that compresses like real values (words, JSON records) and bytes that do not
 * compress at all, all from a seed.
 */
final class Samples {

	private static final String[] WORDS = ("order customer product shipping invoice payment pending delivered "
			+ "warehouse category search latency memory cluster session token region market price discount coupon "
			+ "review rating the of and to in is for on with as by at from that this be are was it or an not")
		.split(" ");

	private static final String[] FIRST_NAMES = { "Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis",
			"Frances", "Edsger", "Radia", "Donald", "Sophie", "Tim", "Hedy", "Alan", "Katherine" };

	private static final String[] CITIES = { "London", "Paris", "Berlin", "Lisbon", "Madrid", "Oslo", "Vienna",
			"Dublin", "Prague", "Warsaw", "Rome", "Athens" };

	private static final String[] ROLES = { "admin", "editor", "viewer", "owner", "billing" };

	private Samples() {
	}

	/** {@code size} bytes of space-separated words: compressible like text. */
	static byte[] text(SplittableRandom random, int size) {
		StringBuilder text = new StringBuilder(size + 16);
		while (text.length() < size) {
			text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
		}
		return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
	}

	/** {@code size} random bytes: incompressible. */
	static byte[] random(SplittableRandom random, int size) {
		byte[] bytes = new byte[size];
		random.nextBytes(bytes);
		return bytes;
	}

	/** A JSON record of about 100 bytes, varied like a real user session. */
	static byte[] jsonRecord(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		String first = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)];
		String json = "{\"id\":" + (100000 + random.nextInt(900000)) + ",\"name\":\"" + first + "\",\"email\":\""
				+ first.toLowerCase() + random.nextInt(1000) + "@example.com\",\"city\":\""
				+ CITIES[random.nextInt(CITIES.length)] + "\",\"role\":\"" + ROLES[random.nextInt(ROLES.length)]
				+ "\",\"active\":" + random.nextBoolean() + ",\"seen\":\""
				+ Instant.ofEpochSecond(1_780_000_000L + random.nextInt(10_000_000)) + "\"}";
		return json.getBytes(StandardCharsets.UTF_8);
	}

	/** {@code count} JSON records from seeds {@code from}, {@code from + 1}, ... */
	static List<byte[]> jsonRecords(long from, int count) {
		List<byte[]> records = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			records.add(jsonRecord(from + i));
		}
		return records;
	}

}
