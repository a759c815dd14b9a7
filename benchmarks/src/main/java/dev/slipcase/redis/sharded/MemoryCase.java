package dev.slipcase.redis.sharded;

import java.util.SplittableRandom;

/**
 * The kinds of small values the memory report compares, each generating deterministic values by index.
 */
enum MemoryCase {

	/** Integer counters from 0 to 9,999 (page views, likes), stored as decimal text. */
	COUNTERS("small integer counters (0-9,999)", "counter:") {
		@Override
		String value(SplittableRandom random, int index) {
			return Integer.toString(random.nextInt(10_000));
		}
	},

	/** 20-character random strings. */
	STRINGS_20("20-byte strings", "token:") {
		@Override
		String value(SplittableRandom random, int index) {
			return randomText(random, 20);
		}
	},

	/** JSON of about 55 bytes. */
	JSON_55("~55-byte JSON", "user:") {
		@Override
		String value(SplittableRandom random, int index) {
			return "{\"id\":" + index + ",\"name\":\"" + randomText(random, 8) + "\",\"active\":true,\"score\":"
					+ random.nextInt(100) + "}";
		}
	},

	/** JSON of about 200 bytes: more than a compact hash keeps, so these overflow to plain keys. */
	JSON_200("~200-byte JSON", "order:") {
		@Override
		String value(SplittableRandom random, int index) {
			return "{\"id\":" + index + ",\"customer\":\"" + randomText(random, 12) + "\",\"email\":\""
					+ randomText(random, 10) + "@example.com\",\"status\":\"SHIPPED\",\"total\":"
					+ random.nextInt(100_000) + ",\"currency\":\"EUR\",\"items\":[{\"sku\":\"" + randomText(random, 10)
					+ "\",\"qty\":" + random.nextInt(10) + "},{\"sku\":\"" + randomText(random, 10) + "\",\"qty\":"
					+ random.nextInt(10) + "}],\"note\":\"" + randomText(random, 24) + "\"}";
		}
	};

	private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	private final String description;

	private final String keyPrefix;

	MemoryCase(String description, String keyPrefix) {
		this.description = description;
		this.keyPrefix = keyPrefix;
	}

	String description() {
		return this.description;
	}

	String keyPrefix() {
		return this.keyPrefix;
	}

	/** Whether values of this kind may be compressed: counters stay decimal so increments work. */
	boolean compressible() {
		return this != COUNTERS;
	}

	abstract String value(SplittableRandom random, int index);

	static String randomText(SplittableRandom random, int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return text.toString();
	}

}
