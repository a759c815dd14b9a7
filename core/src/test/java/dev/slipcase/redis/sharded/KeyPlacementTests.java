package dev.slipcase.redis.sharded;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.slipcase.redis.sharded.KeyPlacement.Location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KeyPlacementTests {

	private final ShardedNamespace numeric = ShardedNamespace.builder("users").alias("u").keyPrefix("user:").build();

	private final KeyPlacement placement = new KeyPlacement(this.numeric,
			new ShardLayout(ShardingStrategy.NUMERIC, 384, 16, ShardLayout.FNV1A_32, 1, "users", "user:"), 64, null);

	@Test
	void numericIdIsPlacedByDivisionWithTheRemainderAsField() {
		Location location = this.placement.locate("user:1234");
		assertThat(text(location.bucket())).isEqualTo("~sc:{u:n:3}");
		assertThat(text(location.field())).isEqualTo("82");
	}

	@Test
	void leadingZeroIdIsNotPlacedWhereTheCanonicalIdIs() {
		Location padded = this.placement.locate("user:007");
		Location canonical = this.placement.locate("user:7");
		assertThat(text(canonical.bucket())).isEqualTo("~sc:{u:n:0}");
		assertThat(text(canonical.field())).isEqualTo("7");
		assertThat(text(padded.bucket())).startsWith("~sc:{u:h:");
		assertThat(text(padded.field())).isEqualTo("007");
	}

	@Test
	void aKeyedLayoutPlacesHashedIdsByItsSecret() {
		ShardLayout keyed = new ShardLayout(ShardingStrategy.HASHED, 384, 1024, ShardLayout.SIPHASH_24, 2, "users",
				"user:");
		byte[] secret = new byte[16];
		KeyPlacement first = new KeyPlacement(this.numeric, keyed, 64, secret);
		byte[] alice = "alice".getBytes(StandardCharsets.UTF_8);
		int expected = (int) Long.remainderUnsigned(new SipHash24(secret).hash(alice), 1024);
		assertThat(text(first.locate("user:alice").bucket())).isEqualTo("~sc:{u:h:" + expected + "}");
		secret[15] = 1;
		KeyPlacement second = new KeyPlacement(this.numeric, keyed, 64, secret);
		int moved = 0;
		for (int i = 0; i < 100; i++) {
			if (!text(first.locate("user:id" + i).bucket()).equals(text(second.locate("user:id" + i).bucket()))) {
				moved++;
			}
		}
		assertThat(moved).as("ids placed elsewhere under another secret").isGreaterThan(90);
	}

	@Test
	void aLayoutOfAnUnknownHashOrWithoutItsSecretIsRefused() {
		ShardLayout keyed = new ShardLayout(ShardingStrategy.HASHED, 384, 1024, ShardLayout.SIPHASH_24, 2, "users",
				"user:");
		assertThatIllegalArgumentException().isThrownBy(() -> new KeyPlacement(this.numeric, keyed, 64, null));
		ShardLayout unknown = new ShardLayout(ShardingStrategy.HASHED, 384, 1024, "murmur3", 2, "users", "user:");
		assertThatIllegalArgumentException().isThrownBy(() -> new KeyPlacement(this.numeric, unknown, 64, null))
			.withMessageContaining("murmur3");
	}

	@Test
	void otherIdsAreHashedWithTheWholeIdAsField() {
		Location location = this.placement.locate("user:alice");
		int expected = Integer.remainderUnsigned(KeyPlacement.fnv1a32("alice".getBytes(StandardCharsets.UTF_8)), 16);
		assertThat(text(location.bucket())).isEqualTo("~sc:{u:h:" + expected + "}");
		assertThat(text(location.field())).isEqualTo("alice");
	}

	@Test
	void anIdBeyondAsciiIsItsUtf8Bytes() {
		for (String id : new String[] { "jos\u00e9", "\u00fcber", "\u65e5\u672c", "a\ud83d\ude00b", "x" }) {
			Location location = this.placement.locate("user:" + id);
			byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
			int expected = Integer.remainderUnsigned(KeyPlacement.fnv1a32(utf8), 16);
			assertThat(location.field()).as(id).isEqualTo(utf8);
			assertThat(text(location.bucket())).as(id).isEqualTo("~sc:{u:h:" + expected + "}");
		}
	}

	@Test
	void fnv1aMatchesPublishedVectors() {
		assertThat(KeyPlacement.fnv1a32(new byte[0])).isEqualTo(0x811c9dc5);
		assertThat(KeyPlacement.fnv1a32("a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xe40c292c);
		assertThat(KeyPlacement.fnv1a32("foobar".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xbf9cf968);
	}

	@Test
	void idTooLongForAFieldGetsAPlainKey() {
		String id = "x".repeat(65);
		Location location = this.placement.locate("user:" + id);
		assertThat(location.fieldFits()).isFalse();
		assertThat(text(location.overflow())).isEqualTo(location.bucketName() + ":" + id);
	}

	@Test
	void overflowKeySharesTheBucketsHashTag() {
		Location location = this.placement.locate("user:1234");
		assertThat(text(location.overflow())).isEqualTo("~sc:{u:n:3}:82");
	}

	@Test
	void scannedKeysAreRecognisedAndTheLogicalKeyRebuilt() {
		assertThat(this.placement.parse("~sc:{u:n:3}")).isEqualTo(new KeyPlacement.Owned("~sc:{u:n:3}", null));
		assertThat(this.placement.parse("~sc:{u:h:5}:a}:b")).isEqualTo(new KeyPlacement.Owned("~sc:{u:h:5}", "a}:b"));
		assertThat(this.placement.parse("~sc:{u:layout}")).isNull();
		assertThat(this.placement.parse("~sc:{other:n:3}")).isNull();
		assertThat(this.placement.parse("~sc:{u:n:03}")).isNull();
		assertThat(this.placement.logicalKey("~sc:{u:n:3}", "82")).isEqualTo("user:1234");
		assertThat(this.placement.logicalKey("~sc:{u:h:5}", "007")).isEqualTo("user:007");
	}

	@Test
	void keyWithoutTheNamespacePrefixIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.placement.locate("order:1"))
			.withMessageContaining("order:1")
			.withMessageContaining("user:");
	}

	@Test
	void aFieldsDigitsAreTheDecimalTextOfTheRemainder() {
		for (long value : new long[] { 0, 7, 9, 10, 99, 100, 12345, 999_999_999_999_999_999L, Long.MAX_VALUE }) {
			assertThat(text(KeyPlacement.decimal(value))).isEqualTo(Long.toString(value));
		}
	}

	@Test
	void canonicalDecimalsAreRecognised() {
		assertThat(KeyPlacement.isCanonicalDecimal("0")).isTrue();
		assertThat(KeyPlacement.isCanonicalDecimal("123456789012345678")).isTrue();
		assertThat(KeyPlacement.isCanonicalDecimal("1234567890123456789")).isFalse();
		assertThat(KeyPlacement.isCanonicalDecimal("00")).isFalse();
		assertThat(KeyPlacement.isCanonicalDecimal("-1")).isFalse();
		assertThat(KeyPlacement.isCanonicalDecimal("")).isFalse();
		assertThat(KeyPlacement.isCanonicalDecimal("1a")).isFalse();
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
