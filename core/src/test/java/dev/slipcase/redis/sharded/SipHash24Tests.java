package dev.slipcase.redis.sharded;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests {@link SipHash24} against the reference vectors of the SipHash paper (key 00 01 … 0f,
 * message 00 01 … of each length).
 */
class SipHash24Tests {

	private final SipHash24 hash = new SipHash24(counting(16));

	@Test
	void answersTheReferenceVectors() {
		assertThat(this.hash.hash(counting(0))).isEqualTo(0x726fdb47dd0e0e31L);
		assertThat(this.hash.hash(counting(15))).isEqualTo(0xa129ca6149be45e5L);
	}

	@Test
	void anotherKeyGivesAnotherHash() {
		byte[] other = counting(16);
		other[0] = 1;
		assertThat(new SipHash24(other).hash(counting(15))).isNotEqualTo(this.hash.hash(counting(15)));
	}

	@Test
	void refusesAKeyOfAnotherLength() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SipHash24(new byte[8])).withMessageContaining("16");
	}

	private static byte[] counting(int length) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) i;
		}
		return bytes;
	}

}
