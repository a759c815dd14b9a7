package dev.slipcase.redis.serializer.json;

import java.time.Instant;
import java.util.SplittableRandom;

import dev.slipcase.redis.serializer.Buffers;
import dev.slipcase.redis.serializer.TestValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class FastInstantsTests {

	@Test
	void formatsExactlyAsInstantToString() {
		SplittableRandom random = new SplittableRandom(42);
		for (int i = 0; i < 20_000; i++) {
			Instant instant = Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L),
					nanos(random));
			assertThat(FastInstants.format(instant)).isEqualTo(instant.toString());
		}
	}

	@Test
	void parsesWhatInstantToStringWrites() {
		SplittableRandom random = new SplittableRandom(7);
		for (int i = 0; i < 20_000; i++) {
			Instant instant = Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L),
					nanos(random));
			char[] text = ("xx" + instant + "yy").toCharArray();
			assertThat(FastInstants.parse(text, 2, text.length - 4)).isEqualTo(instant);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "2026-05-01T10:15:30+01:00", "2026-02-30T10:15:30Z", "2026-05-01T24:00:00Z",
			"2026-05-01T10:15:60Z", "+12026-05-01T10:15:30Z", "2026-05-01 10:15:30Z", "2026-05-01T10:15:30.Z",
			"2026-05-01T10:15:30.1234567890Z", "2026-05-01T10:15Z", "1780000000", "2026-05-01t10:15:30z" })
	void leavesEverythingElseToJackson(String text) {
		assertThat(FastInstants.parse(text.toCharArray(), 0, text.length())).isNull();
	}

	@Test
	void jsonFormatStillReadsOtherInstantForms() {
		JsonFormat<TestValues.Session> format = JsonFormat.of(TestValues.Session.class);
		byte[] offset = "{\"user\":\"u\",\"expiresAt\":\"2026-05-01T11:00:00+01:00\",\"flags\":1}".getBytes();
		byte[] numeric = "{\"user\":\"u\",\"expiresAt\":1777629600,\"flags\":1}".getBytes();
		assertThat(Buffers.POOLED_HEAP.with(offset, format::decode).expiresAt()).isEqualTo("2026-05-01T10:00:00Z");
		assertThat(Buffers.POOLED_HEAP.with(numeric, format::decode).expiresAt()).isEqualTo("2026-05-01T10:00:00Z");
	}

	private static int nanos(SplittableRandom random) {
		return switch (random.nextInt(4)) {
			case 0 -> 0;
			case 1 -> random.nextInt(1000) * 1_000_000;
			case 2 -> random.nextInt(1_000_000) * 1_000;
			default -> random.nextInt(1_000_000_000);
		};
	}

}
