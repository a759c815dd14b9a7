package dev.slipcase.redis.near;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.cache.support.NullValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ImmutableValues}: what the near tier may hand to every reader as it is, and what
 * it must copy for each read.
 */
class ImmutableValuesTests {

	record Money(BigDecimal amount, String currency) {
	}

	record Order(long id, Money total, Instant placed, List<String> lines, Optional<String> note) {
	}

	static final class Bean {

		String name;

	}

	@Test
	void scalarsEnumsAndJavaTimeAreImmutable() {
		for (Object value : List.of("text", 1, 2L, 3.0, new BigDecimal("1.50"), UUID.randomUUID(), Instant.EPOCH,
				ZoneId.of("Europe/Berlin"), TimeUnit.SECONDS, NullValue.INSTANCE)) {
			assertThat(ImmutableValues.isImmutable(value)).as("%s", value.getClass()).isTrue();
		}
	}

	@Test
	void recordsOfImmutableValuesAndImmutableCollectionsAreImmutable() {
		Order order = new Order(1, new Money(BigDecimal.TEN, "EUR"), Instant.EPOCH, List.of("a", "b"), Optional.of("n"));
		assertThat(ImmutableValues.isImmutable(order)).isTrue();
		assertThat(ImmutableValues.isImmutable(Map.of("k", order))).isTrue();
	}

	@Test
	void aRecordHoldingAMutableListIsNot() {
		Order order = new Order(1, new Money(BigDecimal.TEN, "EUR"), Instant.EPOCH, new ArrayList<>(List.of("a")),
				Optional.empty());
		assertThat(ImmutableValues.isImmutable(order)).isFalse();
	}

	@Test
	void arraysMutableCollectionsAndBeansAreNot() {
		assertThat(ImmutableValues.isImmutable(new byte[1])).isFalse();
		assertThat(ImmutableValues.isImmutable(new ArrayList<>())).isFalse();
		assertThat(ImmutableValues.isImmutable(new Bean())).isFalse();
		assertThat(ImmutableValues.isImmutable(List.of(new Bean()))).isFalse();
		assertThat(ImmutableValues.isImmutable(Optional.of(new Bean()))).isFalse();
	}

	@Test
	void deepNestingIsNotFollowedForEver() {
		Object nested = "leaf";
		for (int i = 0; i < 40; i++) {
			nested = List.of(nested);
		}
		assertThat(ImmutableValues.isImmutable(nested)).isFalse();
	}

}
