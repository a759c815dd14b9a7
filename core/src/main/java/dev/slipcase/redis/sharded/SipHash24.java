package dev.slipcase.redis.sharded;

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a 64-bit hash keyed with a 128-bit secret. Without
 * the secret, nobody can choose inputs that collide, which is what keeps the ids users pick from
 * being aimed at one bucket. Immutable and thread-safe.
 */
final class SipHash24 {

	/** The length of the secret, in bytes. */
	static final int KEY_BYTES = 16;

	private final long k0;

	private final long k1;

	/**
	 * A hash keyed with {@code key}, read as two little-endian 64-bit words.
	 * @param key {@value #KEY_BYTES} bytes
	 */
	SipHash24(byte[] key) {
		if (key.length != KEY_BYTES) {
			throw new IllegalArgumentException("A SipHash key is " + KEY_BYTES + " bytes, not " + key.length);
		}
		this.k0 = littleEndian(key, 0, 8);
		this.k1 = littleEndian(key, 8, 8);
	}

	/** The 64-bit hash of {@code data}. */
	long hash(byte[] data) {
		long v0 = this.k0 ^ 0x736f6d6570736575L;
		long v1 = this.k1 ^ 0x646f72616e646f6dL;
		long v2 = this.k0 ^ 0x6c7967656e657261L;
		long v3 = this.k1 ^ 0x7465646279746573L;
		int words = data.length / 8;
		// each 8-byte word, then a last one of the bytes left over with the length's low byte on
		// top, goes through two rounds; then four more finish
		for (int word = 0; word <= words + 2; word++) {
			long m = 0;
			int rounds = 4;
			if (word < words) {
				m = littleEndian(data, word * 8, 8);
				rounds = 2;
			}
			else if (word == words) {
				m = littleEndian(data, word * 8, data.length - word * 8) | ((long) data.length << 56);
				rounds = 2;
			}
			else if (word == words + 1) {
				v2 ^= 0xff;
			}
			else {
				break;
			}
			v3 ^= m;
			for (int round = 0; round < rounds; round++) {
				v0 += v1;
				v1 = Long.rotateLeft(v1, 13) ^ v0;
				v0 = Long.rotateLeft(v0, 32);
				v2 += v3;
				v3 = Long.rotateLeft(v3, 16) ^ v2;
				v0 += v3;
				v3 = Long.rotateLeft(v3, 21) ^ v0;
				v2 += v1;
				v1 = Long.rotateLeft(v1, 17) ^ v2;
				v2 = Long.rotateLeft(v2, 32);
			}
			v0 ^= m;
		}
		return v0 ^ v1 ^ v2 ^ v3;
	}

	private static long littleEndian(byte[] bytes, int from, int count) {
		long value = 0;
		for (int i = count - 1; i >= 0; i--) {
			value = (value << 8) | (bytes[from + i] & 0xffL);
		}
		return value;
	}

}
